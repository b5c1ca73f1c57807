import { InputError } from '@multihop/core';
import fc from 'fast-check';
import { allPassAtK, dedupeRanking, fullRecallAtK, ndcgAtK, recallAtK, retrievalScores } from './retrieval';

describe('retrieval metrics', () => {
  const gold = ['g1', 'g2'];

  it('scores a ranking with hand-computed values', () => {
    // rel = [0, 1, 0, 1]: DCG = 1/log2(3) + 1/log2(5); IDCG = 1 + 1/log2(3)
    expect(retrievalScores(['p1', 'g1', 'p2', 'g2'], gold, 4)).toEqual({
      k: 4,
      recall: 1,
      fullRecall: 1,
      ndcg: expect.closeTo(0.6509209298071326, 12),
      allPass: 1,
    });
    // Cut at 2: only g1 is in, at rank 2.
    expect(retrievalScores(['p1', 'g1', 'p2', 'g2'], gold, 2)).toEqual({
      k: 2,
      recall: 1,
      fullRecall: 0.5,
      ndcg: expect.closeTo(0.38685280723454163, 12),
      allPass: 0,
    });
  });

  it('matches the OPERA worked example: rel [1, 0, 1, 0, 0] against ideal [1, 1, 0, 0, 0]', () => {
    expect(ndcgAtK(['g1', 'x', 'g2', 'y', 'z'], gold, 5)).toBeCloseTo(0.9197207891481876, 12);
  });

  it('uses PAR²’s Recall@k: any gold passage in the top k counts as 1', () => {
    expect(recallAtK(['x', 'g2'], ['g1', 'g2', 'g3'], 2)).toBe(1);
    expect(fullRecallAtK(['x', 'g2'], ['g1', 'g2', 'g3'], 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(['x', 'y', 'g1'], gold, 2)).toBe(0);
  });

  it('counts a repeated id once, at its first rank', () => {
    expect(dedupeRanking(['g1', 'x', 'g1', 'g2', 'x'])).toEqual(['g1', 'x', 'g2']);
    // Without deduplication the top 2 would be [g1, g1] and g2 would be missed.
    expect(allPassAtK(['g1', 'g1', 'g1', 'g2'], gold, 2)).toBe(1);
    expect(ndcgAtK(['g1', 'g1', 'g2'], gold, 2)).toBe(1);
  });

  it('caps the ideal DCG at k, so a perfect top-1 scores 1 even with three gold passages', () => {
    expect(ndcgAtK(['g1', 'x'], ['g1', 'g2', 'g3'], 1)).toBe(1);
    expect(allPassAtK(['g1', 'g2', 'g3'], ['g1', 'g2', 'g3'], 2)).toBe(0);
  });

  it('ignores duplicated gold ids', () => {
    expect(fullRecallAtK(['g1'], ['g1', 'g1', 'g2'], 3)).toBe(0.5);
  });

  it('rejects a bad k and an empty gold set', () => {
    expect(() => recallAtK(['a'], gold, 0)).toThrow(InputError);
    expect(() => recallAtK(['a'], gold, 1.5)).toThrow(InputError);
    expect(() => ndcgAtK(['a'], [], 5)).toThrow(/at least one gold passage/);
  });

  describe('properties', () => {
    const id = fc.constantFrom('g1', 'g2', 'g3', 'a', 'b', 'c', 'd');
    const ranking = fc.array(id, { maxLength: 12 });
    const goldIds = fc.array(fc.constantFrom('g1', 'g2', 'g3', 'a'), { minLength: 1, maxLength: 4 });
    const k = fc.integer({ min: 1, max: 12 });

    it('keeps every metric in [0, 1] and orders All-Pass ≤ full recall ≤ Recall@k', () => {
      fc.assert(
        fc.property(ranking, goldIds, k, (r, g, kk) => {
          const s = retrievalScores(r, g, kk);
          const inUnit = [s.recall, s.fullRecall, s.ndcg, s.allPass].every((v) => v >= 0 && v <= 1 + 1e-12);
          return inUnit && s.allPass <= s.fullRecall && s.fullRecall <= s.recall;
        }),
      );
    });

    it('never lowers recall, full recall or All-Pass as k grows', () => {
      fc.assert(
        fc.property(ranking, goldIds, k, (r, g, kk) => {
          const a = retrievalScores(r, g, kk);
          const b = retrievalScores(r, g, kk + 1);
          return b.recall >= a.recall && b.fullRecall >= a.fullRecall && b.allPass >= a.allPass;
        }),
      );
    });

    it('gives NDCG = 1 to a ranking that starts with all gold passages', () => {
      fc.assert(
        fc.property(goldIds, ranking, (g, rest) => {
          const distinct = [...new Set(g)];
          return Math.abs(ndcgAtK([...distinct, ...rest], g, distinct.length) - 1) < 1e-12;
        }),
      );
    });
  });
});
