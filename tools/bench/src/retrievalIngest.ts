/**
 * bench:retrieval's ingest comparison (the project's store against raw LanceDB on the same rows,
 * write, embed and index timed apart) and its 1M-row vector index (IVF_PQ, recall@10 against
 * exact search). Imported by retrieval.ts.
 */
import type { CorpusPassage } from '@multihop/datasets';
import { summarizeLatency } from '@multihop/metrics';
import { CorpusStore, HashingEmbedder } from '@multihop/retriever';
import { HashingEmbedderBefore } from './retrievalEmbedderBefore';

type Lance = typeof import('@lancedb/lancedb');
type Table = Awaited<ReturnType<CorpusStore['table']>>;

export interface IngestSide {
  passages: number;
  embedMs: number;
  writeMs: number;
  indexMs: number;
}

const FTS = { withPosition: false, stem: true, removeStopWords: true, language: 'English' } as const;

/** The embedder alone on the passages' search texts: one fresh embedder (cold caches), as an ingest uses it. */
export function embedderRate(passages: CorpusPassage[]): { before: number; embed: number; embedFloat32: number } {
  const texts = passages.map((p) => `${p.title}. ${p.text}`);
  const best = (f: () => unknown) => {
    let rate = 0;
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      f();
      rate = Math.max(rate, texts.length / ((performance.now() - t) / 1000));
    }
    return rate;
  };
  // Interleaved, so that load from other processes hits every variant alike.
  const rates = { before: 0, embed: 0, embedFloat32: 0 };
  for (let round = 0; round < 3; round++) {
    rates.before = Math.max(rates.before, best(() => new HashingEmbedderBefore().embed(texts)));
    rates.embed = Math.max(rates.embed, best(() => void new HashingEmbedder().embed(texts)));
    rates.embedFloat32 = Math.max(rates.embedFloat32, best(() => new HashingEmbedder().embedFloat32(texts)));
  }
  return rates;
}

/**
 * The same passages into a fresh corpus through the store (ingestPassages, passage level, hashing
 * embedder; no vector index on either side: vectorIndex() times that), and straight into LanceDB the way its docs show (rows as objects with `vector:
 * number[]` from `embed`, `table.add` per batch, then optimize and the FTS index).
 */
export async function compareIngest(dir: string, passages: CorpusPassage[], batchSize = 10_000): Promise<{ project: IngestSide; raw: IngestSide }> {
  const lancedb: Lance = await import('@lancedb/lancedb');
  const store = await CorpusStore.open({ uri: `${dir}/ingest-project` });
  const report = await store.ingestPassages(passages, { corpus: 'ingest', source: 'bench', levels: ['passage'], embedder: new HashingEmbedder(), batchSize, vectorIndexMinRows: Infinity });
  store.close();
  const project = { passages: passages.length, embedMs: report.embedMs, writeMs: report.ingestMs - report.embedMs, indexMs: report.indexMs };

  const db = await lancedb.connect(`${dir}/ingest-raw`);
  const embedder = new HashingEmbedder();
  let table: Table | undefined;
  let embedMs = 0;
  let writeMs = 0;
  for (let i = 0; i < passages.length; i += batchSize) {
    const batch = passages.slice(i, i + batchSize);
    let t = performance.now();
    const texts = batch.map((p) => `${p.title}. ${p.text}`);
    const vectors = await embedder.embed(texts);
    embedMs += performance.now() - t;
    t = performance.now();
    const rows = batch.map((p, j) => ({ row_key: p.id, id: p.id, passage_id: p.id, title: p.title, text: p.text, sentence: -1, question_id: '', search_text: texts[j]!, vector: vectors[j]! }));
    if (!table) table = await db.createTable('raw', rows);
    else await table.add(rows);
    writeMs += performance.now() - t;
  }
  const t = performance.now();
  await table!.optimize();
  await table!.createIndex('search_text', { config: lancedb.Index.fts(FTS) });
  const indexMs = performance.now() - t;
  table!.close();
  db.close();
  return { project, raw: { passages: passages.length, embedMs, writeMs, indexMs } };
}

export interface VectorIndexFigures {
  rows: number;
  buildMs: number;
  index: string;
  queries: number;
  exactP50: number;
  exactP95: number;
  /** Per nprobes setting. */
  probes: Array<{ nprobes: number; recallAt10: number; p50: number; p95: number }>;
}

const NPROBES = [20, 64, 128];
/** Candidates re-ranked by their full vectors: k × this. */
const REFINE_FACTOR = 100;

/**
 * IVF_PQ on the vector column (about 4,096 rows per partition, 8-bit PQ codes over 4-dimension
 * sub-vectors), then each query's top 10 with the index (nprobes 20, 64 and 128, refine factor 100:
 * PQ picks 1,000 candidates, their full vectors rank them) against exact flat search
 * (`bypassVectorIndex`). Of what was tried on the 1M corpus (docs/retrieval.md), this gave the best
 * recall for the time: LanceDB's default 16-dimension sub-vectors with refine factor 10 found 38% of
 * the exact top 10, IVF_HNSW_SQ 65% / 75% / 83% at nprobes 20 / 64 / 128.
 */
export async function vectorIndex(table: Table, queries: string[], embedder: HashingEmbedder): Promise<VectorIndexFigures> {
  const lancedb: Lance = await import('@lancedb/lancedb');
  const rows = await table.countRows();
  const numPartitions = Math.max(1, Math.round(rows / 4096));
  const numSubVectors = Math.max(1, embedder.dimensions / 4);
  let t = performance.now();
  await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions, numSubVectors }), replace: true });
  const buildMs = performance.now() - t;
  const vectors = await embedder.embed(queries);
  const search = (v: number[], nprobes: number) => {
    const q = table.query().nearestTo(v).distanceType('cosine').select(['id', '_distance']).limit(10);
    return (nprobes === 0 ? q.bypassVectorIndex() : q.nprobes(nprobes).refineFactor(REFINE_FACTOR)).toArray();
  };
  for (const v of vectors.slice(0, 3)) await search(v, NPROBES[0]!);
  const exact: number[] = [];
  const truths: Array<Set<string>> = [];
  for (const v of vectors) {
    t = performance.now();
    const truth = await search(v, 0);
    exact.push(performance.now() - t);
    truths.push(new Set(truth.map((r) => String(r.id))));
  }
  const probes: VectorIndexFigures['probes'] = [];
  for (const nprobes of NPROBES) {
    const times: number[] = [];
    let found = 0;
    for (const [i, v] of vectors.entries()) {
      t = performance.now();
      const approx = await search(v, nprobes);
      times.push(performance.now() - t);
      found += approx.filter((r) => truths[i]!.has(String(r.id))).length / Math.max(1, truths[i]!.size);
    }
    const l = summarizeLatency(times)!;
    probes.push({ nprobes, recallAt10: found / vectors.length, p50: l.p50, p95: l.p95 });
  }
  const e = summarizeLatency(exact)!;
  return {
    rows,
    buildMs,
    index: `IVF_PQ (${numPartitions} partitions, ${numSubVectors} sub-vectors × 8 bits, refine factor ${REFINE_FACTOR})`,
    queries: vectors.length,
    exactP50: e.p50,
    exactP95: e.p95,
    probes,
  };
}
