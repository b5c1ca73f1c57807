import type { Reranker, SearchHit } from '@multihop/core';
import { terms } from './text';

export interface LexicalRerankerOptions {
  /** Weight of a query term found in the title relative to one in the text (default 2): titles name the entity. */
  titleWeight?: number;
}

/**
 * An offline reranker: scores each candidate by the query terms it covers, each term weighted by
 * its rarity among the candidates (idf over the candidate set), titles counting more. Ties keep
 * the retrieval order. Deterministic, no model.
 */
export class LexicalReranker implements Reranker {
  readonly id = 'lexical-v1';
  private readonly titleWeight: number;

  constructor(options: LexicalRerankerOptions = {}) {
    this.titleWeight = options.titleWeight ?? 2;
  }

  async rerank(query: string, hits: SearchHit[], options: { k?: number } = {}): Promise<SearchHit[]> {
    const wanted = [...new Set(terms(query))];
    const docs = hits.map((h) => ({ title: new Set(terms(h.title)), text: new Set(terms(h.text)) }));
    const n = hits.length;
    const idf = new Map(wanted.map((t) => [t, Math.log(1 + n / (1 + docs.filter((d) => d.title.has(t) || d.text.has(t)).length))]));
    const scored = hits.map((hit, i) => {
      const d = docs[i]!;
      let score = 0;
      for (const t of wanted) {
        const w = idf.get(t) ?? 0;
        if (d.title.has(t)) score += this.titleWeight * w;
        else if (d.text.has(t)) score += w;
      }
      return { hit, score, i };
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, options.k ?? n).map(({ hit, score }, position) => ({ ...hit, rank: position + 1, score }));
  }
}
