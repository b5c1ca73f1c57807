import type { SearchHit } from '@multihop/core';
import { reciprocalRankFusion } from './reciprocalRankFusion';

const hits = (...ids: string[]): SearchHit[] => ids.map((id, i) => ({ id, title: id, text: id, rank: i + 1, score: 1 }));

describe('reciprocalRankFusion', () => {
  it('ranks what several lists agree on first and deduplicates', () => {
    const fused = reciprocalRankFusion([hits('a', 'b', 'c'), hits('b', 'd'), hits('b', 'a')]);
    expect(fused.map((h) => h.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61 + 1 / 61, 12);
    expect(fused.map((h) => h.rank)).toEqual([1, 2, 3, 4]);
  });

  it('dedupes sentence hits by their passage', () => {
    const s = (id: string, passageId: string): SearchHit => ({ id, passageId, sentence: 0, title: '', text: id, rank: 1, score: 1 });
    expect(reciprocalRankFusion([[s('p:s0', 'p'), s('p:s1', 'p'), s('q:s0', 'q')]], { limit: 5 }).map((h) => h.id)).toEqual(['p:s0', 'q:s0']);
  });
});
