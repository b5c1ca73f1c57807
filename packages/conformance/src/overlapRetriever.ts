import type { RetrieverPort, SearchHit } from '@multihop/core';

/**
 * Term-overlap search over a fixed pool of real paragraphs (one question's own, the distractor
 * setting), for tests of packages that sit below @multihop/retriever and its LanceDB tables:
 * passages ranked by how many of the query's words they contain, ties in pool order.
 */
export function overlapRetriever(pool: ReadonlyArray<{ id: string; title: string; text: string }>, defaultK = 5): RetrieverPort {
  const terms = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return {
    async search(query, options = {}) {
      const q = terms(query);
      return pool
        .map((p) => ({ p, score: [...terms(`${p.title} ${p.text}`)].filter((t) => q.has(t)).length }))
        .sort((a, b) => b.score - a.score)
        .slice(0, options.k ?? defaultK)
        .map(({ p, score }, i): SearchHit => ({ ...p, rank: i + 1, score }));
    },
  };
}
