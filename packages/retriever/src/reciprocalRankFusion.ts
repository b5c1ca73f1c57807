import type { SearchHit } from '@multihop/core';

/**
 * Reciprocal rank fusion of ranked lists of any items, deduplicated by `key`: each item scores
 * Σ 1 / (k + rank) over the lists it is in (rank from 1), best first; ties, and the copy kept of an
 * item in several lists, go to the first seen. What reciprocalRankFusion does for hits and the
 * retriever's closed-setting hybrid search does for rows.
 */
export function fuseRanks<T>(lists: readonly (readonly T[])[], key: (item: T) => string, k = 60): Array<{ item: T; score: number }> {
  const fused = new Map<string, { item: T; score: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    list.forEach((item, i) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, score: 0, first: order++ };
      entry.score += 1 / (k + i + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first).map(({ item, score }) => ({ item, score }));
}

/**
 * Fuses several ranked lists (e.g. the hits of PAR²'s parallel sub-queries) into one, deduplicated
 * by `key` (default the passage a hit belongs to): score = Σ 1 / (k + rank). The first-seen copy
 * of a hit is kept.
 */
export function reciprocalRankFusion(lists: SearchHit[][], options: { k?: number; limit?: number; key?: (hit: SearchHit) => string } = {}): SearchHit[] {
  const ranked = fuseRanks(lists, options.key ?? ((h: SearchHit) => h.passageId ?? h.id), options.k ?? 60);
  return ranked.slice(0, options.limit ?? ranked.length).map(({ item, score }, i) => ({ ...item, rank: i + 1, score }));
}
