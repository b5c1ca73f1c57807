import { terms } from '@multihop/lexical';

/** Okapi BM25's free parameters, at the defaults of Lucene and of tantivy (LanceDB's full-text index). */
const K1 = 1.2;
const B = 0.75;

/** Rows read once for BM25: each row's content terms and the collection's average length. */
export interface Bm25Collection {
  rows: readonly Record<string, unknown>[];
  documents: readonly string[][];
  averageLength: number;
}

/** The rows as a BM25 collection: `search_text` (title and text, as the full-text index holds it) split into content terms. */
export function bm25Collection(rows: readonly Record<string, unknown>[]): Bm25Collection {
  const documents = rows.map((row) => terms(String(row.search_text ?? '')));
  return { rows, documents, averageLength: documents.reduce((sum, d) => sum + d.length, 0) / documents.length || 1 };
}

/**
 * Ranks rows by Okapi BM25 with `collection` as the whole collection: its size, average length and
 * document frequencies. The closed (distractor) setting ranks one question's paragraphs among
 * themselves; LanceDB's one full-text index over the closed table would take those statistics from
 * every question's paragraphs (README, "BM25 in the closed setting").
 *
 * Terms are `@multihop/lexical`'s (stop words dropped, light stemming); each query term counts once,
 * idf = ln(1 + (N − n + 0.5) / (n + 0.5)) as in Lucene and tantivy. Rows matching no query term are
 * left out, as a full-text search leaves them out. Returns the rows `ranked` keeps (all by default),
 * best first, each with `_score`; ties go to the smaller id, so a ranking never depends on row order.
 * Give a Bm25Collection to rank several queries over the same rows without splitting them again.
 */
export function rankByBm25(
  query: string,
  collection: readonly Record<string, unknown>[] | Bm25Collection,
  ranked: (row: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown>[] {
  const { rows, documents, averageLength } = 'documents' in collection ? collection : bm25Collection(collection);
  const wanted = [...new Set(terms(query))];
  if (!wanted.length || !rows.length) return [];
  const frequency = new Map<string, number>(wanted.map((t) => [t, 0]));
  for (const document of documents) for (const t of new Set(document)) if (frequency.has(t)) frequency.set(t, frequency.get(t)! + 1);
  const idf = new Map(wanted.map((t) => [t, Math.log(1 + (documents.length - frequency.get(t)! + 0.5) / (frequency.get(t)! + 0.5))]));
  const scored: { row: Record<string, unknown>; score: number }[] = [];
  rows.forEach((row, i) => {
    if (!ranked(row)) return;
    const document = documents[i]!;
    const counts = new Map<string, number>();
    for (const t of document) if (idf.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    if (!counts.size) return;
    const norm = K1 * (1 - B + (B * document.length) / averageLength);
    let score = 0;
    for (const [t, f] of counts) score += (idf.get(t)! * f * (K1 + 1)) / (f + norm);
    scored.push({ row, score });
  });
  scored.sort((a, b) => b.score - a.score || compareIds(a.row, b.row));
  return scored.map(({ row, score }) => ({ ...row, _score: score }));
}

function compareIds(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const x = String(a.id);
  const y = String(b.id);
  return x < y ? -1 : x > y ? 1 : 0;
}
