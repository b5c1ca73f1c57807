import type { SearchHit } from '@multihop/core';

/**
 * Fuses several ranked lists (e.g. the hits of PAR²'s parallel sub-queries) into one, deduplicated
 * by `key` (default the passage a hit belongs to): score = Σ 1 / (k + rank). The first-seen copy
 * of a hit is kept.
 */
export function reciprocalRankFusion(lists: SearchHit[][], options: { k?: number; limit?: number; key?: (hit: SearchHit) => string } = {}): SearchHit[] {
  const k = options.k ?? 60;
  const key = options.key ?? ((h: SearchHit) => h.passageId ?? h.id);
  const fused = new Map<string, { hit: SearchHit; score: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    list.forEach((hit, i) => {
      const id = key(hit);
      const entry = fused.get(id) ?? { hit, score: 0, first: order++ };
      entry.score += 1 / (k + i + 1);
      fused.set(id, entry);
    });
  }
  const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first);
  return ranked.slice(0, options.limit ?? ranked.length).map(({ hit, score }, i) => ({ ...hit, rank: i + 1, score }));
}
