import { InputError } from '@multihop/core';
import fc from 'fast-check';
import { bootstrapMean, comparePaired, formatPValue, mean, mulberry32, pairedBootstrap, pairedPermutationTest } from './statistics';

describe('mulberry32', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const random = mulberry32(seed);
      return Array.from({ length: 5 }, () => random());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws in [0, 1) with a mean near 1/2', () => {
    const random = mulberry32(7);
    const xs = Array.from({ length: 20000 }, () => random());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mean(xs)).toBeGreaterThan(0.49);
    expect(mean(xs)).toBeLessThan(0.51);
  });
});

describe('bootstrapMean', () => {
  it('takes the 2.5th and 97.5th percentiles of the resampled means by nearest rank: the 50th and the 1,950th of 2,000', () => {
    // Token counts per question (continuous, so the resampled means are distinct).
    const tokens = [812, 1403, 655, 2210, 980, 1730, 1204, 545, 3010, 760, 1111, 1890];
    const random = mulberry32(7);
    const means: number[] = [];
    for (let r = 0; r < 2000; r += 1) {
      let sum = 0;
      for (let i = 0; i < tokens.length; i += 1) sum += tokens[Math.floor(random() * tokens.length)]!;
      means.push(sum / tokens.length);
    }
    means.sort((a, b) => a - b);
    expect(bootstrapMean(tokens, { seed: 7, resamples: 2000 })).toMatchObject({ lower: means[49], upper: means[1949] });
  });

  it('gives the same interval for the same seed, another for another seed', () => {
    const scores = Array.from({ length: 30 }, (_, i) => ((i * 7919) % 101) / 100);
    expect(bootstrapMean(scores, { seed: 3 })).toEqual(bootstrapMean(scores, { seed: 3 }));
    expect(bootstrapMean(scores, { seed: 3 })).not.toEqual(bootstrapMean(scores, { seed: 4 }));
  });

  it('matches the normal approximation for 100 fair coin flips (SE = 0.05)', () => {
    const flips = Array.from({ length: 100 }, (_, i) => i % 2);
    const est = bootstrapMean(flips, { seed: 11 });
    expect(est.n).toBe(100);
    expect(est.mean).toBe(0.5);
    expect(est.confidence).toBe(0.95);
    // 0.5 ± 1.96 · 0.05 = [0.402, 0.598]; the bootstrap lands within a hundredth of it.
    expect(est.lower).toBeGreaterThan(0.39);
    expect(est.lower).toBeLessThan(0.415);
    expect(est.upper).toBeGreaterThan(0.585);
    expect(est.upper).toBeLessThan(0.61);
  });

  it('narrows as the confidence level drops', () => {
    const scores = Array.from({ length: 50 }, (_, i) => (i * 37) % 11);
    const wide = bootstrapMean(scores, { confidence: 0.99 });
    const narrow = bootstrapMean(scores, { confidence: 0.5 });
    expect(narrow.upper - narrow.lower).toBeLessThan(wide.upper - wide.lower);
  });

  it('collapses to the value for constant data', () => {
    const est = bootstrapMean([0.7, 0.7, 0.7]);
    expect(est.mean).toBeCloseTo(0.7, 12);
    expect(est.lower).toBe(est.mean);
    expect(est.upper).toBe(est.mean);
  });

  it('rejects empty input, non-finite values and bad options', () => {
    expect(() => bootstrapMean([])).toThrow(InputError);
    expect(() => bootstrapMean([1, Number.NaN])).toThrow(/values\[1\]/);
    expect(() => bootstrapMean([1], { confidence: 1 })).toThrow(InputError);
    expect(() => bootstrapMean([1], { resamples: 0 })).toThrow(InputError);
  });

  it('puts the mean inside its interval', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.integer(), (xs, seed) => {
        const est = bootstrapMean(xs, { seed, resamples: 500 });
        return est.lower <= est.mean && est.mean <= est.upper;
      }),
      { numRuns: 60 },
    );
  });
});

describe('pairedPermutationTest', () => {
  it('computes the exact p-value by enumeration for small samples', () => {
    // Every difference is +1: only all-plus and all-minus reach |sum| = 5, so p = 2/32.
    expect(pairedPermutationTest([1, 1, 1, 1, 1], [0, 0, 0, 0, 0])).toEqual({ n: 5, meanDifference: 1, pValue: 2 / 32, exact: true });
    // Differences ±1 with sum 2: |sum| ≥ 2 for 1 + 4 + 4 + 1 of the 16 sign assignments.
    expect(pairedPermutationTest([1, 1, 1, 0], [0, 0, 0, 1]).pValue).toBe(10 / 16);
  });

  it('samples sign flips for large samples of differences of several sizes, never reporting p = 0', () => {
    const a = Array.from({ length: 40 }, (_, i) => 0.5 + (i % 3) * 0.25);
    const b = Array.from({ length: 40 }, () => 0);
    const test = pairedPermutationTest(a, b, { permutations: 999 });
    expect(test.exact).toBe(false);
    expect(test.pValue).toBe(1 / 1000);
  });

  it('is the exact two-sided sign test (McNemar) for 0/1 scores of any size', () => {
    // The binomial tail written out with BigInt: P(|2X − m| ≥ |2·plus − m|), X ~ Binomial(m, ½).
    const signTest = (plus: number, minus: number): number => {
      const m = plus + minus;
      let choose = 1n;
      let hits = 0n;
      for (let x = 0; x <= m; x += 1) {
        if (Math.abs(2 * x - m) >= Math.abs(plus - minus)) hits += choose;
        choose = (choose * BigInt(m - x)) / BigInt(x + 1);
      }
      return Number((hits * 10n ** 15n) / 2n ** BigInt(m)) / 1e15;
    };
    const scores = (plus: number, minus: number, ties: number): [number[], number[]] => [
      [...Array(plus).fill(1), ...Array(minus).fill(0), ...Array(ties).fill(1)],
      [...Array(plus).fill(0), ...Array(minus).fill(1), ...Array(ties).fill(1)],
    ];
    for (const [plus, minus, ties] of [[30, 15, 200], [15, 30, 0], [3, 1, 9], [60, 61, 40], [0, 7, 400]] as const) {
      const test = pairedPermutationTest(...scores(plus, minus, ties));
      expect(test.exact).toBe(true);
      expect(test.pValue).toBeCloseTo(signTest(plus, minus), 12);
    }
    // Up to 12 questions it agrees with enumerating every sign assignment.
    const [a, b] = scores(7, 2, 3);
    expect(pairedPermutationTest(a, b).pValue).toBeCloseTo(pairedPermutationTest(a.map((x) => x * 3), b.map((x) => x * 3)).pValue, 15);
    expect(pairedPermutationTest(a, b).pValue).toBeCloseTo(signTest(7, 2), 12);
    // Thousands of one-sided questions: far below 0.001, and still not 0.
    const [many, none] = scores(3000, 0, 0);
    const tiny = pairedPermutationTest(many, none).pValue;
    expect(tiny).toBeGreaterThan(0);
    expect(formatPValue(tiny)).toBe('<0.001');
  });

  it('gives identical systems p = 1, sampled or exact', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }), (xs) => {
        const test = pairedPermutationTest(xs, [...xs], { permutations: 200 });
        return test.pValue === 1 && test.meanDifference === 0;
      }),
      { numRuns: 50 },
    );
  });

  it('is symmetric in the two systems and keeps p in (0, 1]', () => {
    const scores = fc.array(fc.constantFrom(0, 0.5, 1), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(scores, scores, (a, b) => {
        const ab = pairedPermutationTest(a, b);
        const ba = pairedPermutationTest(b, a);
        return ab.exact && ab.pValue === ba.pValue && ab.pValue > 0 && ab.pValue <= 1;
      }),
      { numRuns: 30 },
    );
  });

  it('refuses samples of different lengths', () => {
    expect(() => pairedPermutationTest([1, 0], [1])).toThrow(/same questions/);
  });
});

describe('pairedBootstrap and comparePaired', () => {
  const a = [1, 1, 0, 1, 0.5, 1, 1, 0, 1, 1];
  const b = [0, 1, 0, 0, 0.5, 1, 0, 0, 1, 0];

  it('puts the mean difference inside its interval, reproducibly', () => {
    const diff = pairedBootstrap(a, b, { seed: 5 });
    expect(diff.meanDifference).toBeCloseTo(0.4, 12);
    expect(diff.lower).toBeLessThanOrEqual(diff.meanDifference);
    expect(diff.upper).toBeGreaterThanOrEqual(diff.meanDifference);
    expect(diff.lower).toBeGreaterThan(0);
    expect(pairedBootstrap(a, b, { seed: 5 })).toEqual(diff);
  });

  it('pairs by question: a constant per-question gap has a zero-width interval', () => {
    const base = [0.1, 0.9, 0.4, 0.6, 0.3];
    const diff = pairedBootstrap(base.map((x) => x + 0.25), base);
    expect(diff.upper - diff.lower).toBeLessThan(1e-12);
    expect(diff.meanDifference).toBeCloseTo(0.25, 12);
  });

  it('reports means, the difference, its interval and the permutation p-value together', () => {
    const cmp = comparePaired(a, b, { seed: 5 });
    expect(cmp).toEqual({
      ...pairedBootstrap(a, b, { seed: 5 }),
      meanA: 0.75,
      meanB: 0.35,
      pValue: pairedPermutationTest(a, b, { seed: 5 }).pValue,
    });
    // Differences [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]: four +1s, |sum| = 4 only when all four keep
    // one sign; 2 · 2^6 of the 2^10 assignments.
    expect(cmp.pValue).toBe(0.125);
  });
});

describe('formatPValue', () => {
  it('prints three decimals, and <0.001 for the smallest sampled p-value rather than 0.000', () => {
    // 40 questions all favouring one side by differing amounts: too many to enumerate, so the p-value is sampled, (1 + 0) / (1 + R).
    const p = pairedPermutationTest(Array.from({ length: 40 }, (_, i) => 1 + (i % 2)), Array(40).fill(0), { permutations: 5000 }).pValue;
    expect([p, formatPValue(p)]).toEqual([1 / 5001, '<0.001']);
    expect([formatPValue(0.001), formatPValue(0.0315), formatPValue(1)]).toEqual(['0.001', '0.032', '1.000']);
  });
});
