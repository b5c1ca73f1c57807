import { InputError } from '@multihop/core';
import { percentile } from './cost';

/**
 * mulberry32, a small seeded 32-bit PRNG returning numbers in [0, 1). Math.random cannot be
 * seeded, and a reported interval has to come out the same when the evaluation is re-run.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkSample(values: readonly number[], field: string): void {
  if (values.length === 0) throw new InputError(`${field}: need at least one value`, { field });
  const bad = values.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new InputError(`${field}[${bad}] is not a finite number: ${values[bad]}`, { field });
}

export function mean(values: readonly number[]): number {
  checkSample(values, 'values');
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export interface BootstrapOptions {
  /** Same seed, same interval. Default 1. */
  seed?: number;
  /** Bootstrap resamples. Default 2000. */
  resamples?: number;
  /** Coverage of the interval. Default 0.95. */
  confidence?: number;
}

export interface MeanEstimate {
  n: number;
  mean: number;
  /** Percentile bootstrap interval (nearest-rank percentiles of the resampled means). */
  lower: number;
  upper: number;
  confidence: number;
}

interface ResolvedBootstrap {
  seed: number;
  resamples: number;
  confidence: number;
}

function resolveBootstrap(options: BootstrapOptions): ResolvedBootstrap {
  const { seed = 1, resamples = 2000, confidence = 0.95 } = options;
  if (!Number.isInteger(resamples) || resamples < 1) throw new InputError(`resamples must be a positive integer, got ${resamples}`, { field: 'resamples' });
  if (!(confidence > 0 && confidence < 1)) throw new InputError(`confidence must be in (0, 1), got ${confidence}`, { field: 'confidence' });
  return { seed, resamples, confidence };
}

function percentileInterval(values: readonly number[], options: ResolvedBootstrap): Omit<MeanEstimate, 'n'> {
  const random = mulberry32(options.seed);
  const n = values.length;
  const means: number[] = [];
  for (let r = 0; r < options.resamples; r += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += values[Math.floor(random() * n)] as number;
    means.push(sum / n);
  }
  // Rounded: (1 − 0.95) / 2 · 100 is 2.500000000000002 in floating point, which took the 51st of 2,000 means, not the 50th.
  const tail = Math.round(((1 - options.confidence) / 2) * 100 * 1e9) / 1e9;
  return {
    mean: mean(values),
    lower: percentile(means, tail),
    upper: percentile(means, 100 - tail),
    confidence: options.confidence,
  };
}

/** The mean of per-question scores with a seeded percentile-bootstrap confidence interval. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): MeanEstimate {
  checkSample(values, 'values');
  return { n: values.length, ...percentileInterval(values, resolveBootstrap(options)) };
}

function differences(a: readonly number[], b: readonly number[]): number[] {
  checkSample(a, 'a');
  checkSample(b, 'b');
  if (a.length !== b.length) {
    throw new InputError(`paired samples need the same questions: ${a.length} scores against ${b.length}`, { field: 'b' });
  }
  return a.map((x, i) => x - (b[i] as number));
}

export interface PairedDifference {
  n: number;
  /** mean(a) − mean(b) over the same questions. */
  meanDifference: number;
  lower: number;
  upper: number;
  confidence: number;
}

/**
 * Paired bootstrap: resamples questions, keeping each question's two scores together, so the
 * interval reflects the difference between workflows rather than how hard the questions are.
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: BootstrapOptions = {}): PairedDifference {
  const d = differences(a, b);
  const { mean: meanDifference, lower, upper, confidence } = percentileInterval(d, resolveBootstrap(options));
  return { n: d.length, meanDifference, lower, upper, confidence };
}

export interface PermutationOptions {
  /** Same seed, same p-value when sampling. Default 1. */
  seed?: number;
  /**
   * Random sign assignments to sample. Default 10000. When all 2^n assignments fit in this
   * budget they are enumerated instead, and when the differences have one size (0/1 scores) none
   * is sampled: the p-value is exact either way.
   */
  permutations?: number;
}

export interface PermutationTest {
  n: number;
  meanDifference: number;
  /** Two-sided: the share of sign assignments whose |mean difference| reaches the observed one. */
  pValue: number;
  /** True when every one of the 2^n assignments was evaluated. */
  exact: boolean;
}

/**
 * Paired permutation (sign-flip) test. Under the null hypothesis the two workflows are
 * exchangeable on every question, so each per-question difference is as likely to have the
 * opposite sign. It is exact for any number of questions when every difference that is not 0 has
 * the same size (0/1 scores such as EM and correctness: then it is the exact two-sided sign test,
 * McNemar's on the discordant questions), exact by enumeration for up to 20 questions when the
 * `permutations` budget covers the 2^n assignments, and sampled otherwise. Sampled p-values count
 * the observed assignment, (1 + hits) / (1 + R), so a p-value is never 0 and identical systems get
 * exactly 1.
 */
export function pairedPermutationTest(a: readonly number[], b: readonly number[], options: PermutationOptions = {}): PermutationTest {
  const d = differences(a, b);
  const { seed = 1, permutations = 10000 } = options;
  if (!Number.isInteger(permutations) || permutations < 1) {
    throw new InputError(`permutations must be a positive integer, got ${permutations}`, { field: 'permutations' });
  }
  const n = d.length;
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  // Sums of the same terms in another order or sign can differ in the last bits; an assignment
  // as extreme as the observed one must not be missed for that.
  const tolerance = 1e-12 * d.reduce((s, x) => s + Math.abs(x), 0);
  const reaches = (sum: number): boolean => Math.abs(sum) >= observed - tolerance;
  const meanDifference = mean(d);

  if (n <= 20 && 2 ** n <= permutations) {
    let hits = 0;
    for (let mask = 0; mask < 2 ** n; mask += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += mask & (1 << i) ? -(d[i] as number) : (d[i] as number);
      if (reaches(sum)) hits += 1;
    }
    return { n, meanDifference, pValue: hits / 2 ** n, exact: true };
  }

  const signTest = exactSignTest(d);
  if (signTest !== undefined) return { n, meanDifference, pValue: signTest, exact: true };

  const random = mulberry32(seed);
  let hits = 0;
  for (let r = 0; r < permutations; r += 1) {
    let sum = 0;
    for (const x of d) sum += random() < 0.5 ? -x : x;
    if (reaches(sum)) hits += 1;
  }
  return { n, meanDifference, pValue: (1 + hits) / (1 + permutations), exact: false };
}

/**
 * The sign-flip test's exact p-value when every non-zero difference has one size c: the sum is then
 * c · (2X − m) with X ~ Binomial(m, ½) over the m non-zero differences, so
 * p = P(|2X − m| ≥ |2·plus − m|). Summed in log space, so a few thousand discordant questions
 * neither overflow nor round to 0 (the smallest double stands in for a p-value below it).
 * Undefined when the differences have several sizes.
 */
function exactSignTest(d: readonly number[]): number | undefined {
  let size = 0;
  let plus = 0;
  let m = 0;
  for (const x of d) {
    if (x === 0) continue;
    const magnitude = Math.abs(x);
    if (size === 0) size = magnitude;
    else if (Math.abs(magnitude - size) > 1e-12 * size) return undefined;
    m += 1;
    if (x > 0) plus += 1;
  }
  if (m === 0) return 1;
  const logFactorial = [0];
  for (let i = 1; i <= m; i += 1) logFactorial.push(logFactorial[i - 1]! + Math.log(i));
  const extreme = Math.abs(2 * plus - m);
  const logTerms: number[] = [];
  for (let x = 0; x <= m; x += 1) {
    if (Math.abs(2 * x - m) >= extreme) logTerms.push(logFactorial[m]! - logFactorial[x]! - logFactorial[m - x]! - m * Math.LN2);
  }
  const top = logTerms.reduce((a, b) => Math.max(a, b), -Infinity);
  const p = Math.exp(top) * logTerms.reduce((sum, t) => sum + Math.exp(t - top), 0);
  return Math.min(1, Math.max(p, Number.MIN_VALUE));
}

export interface PairedComparison extends PairedDifference {
  meanA: number;
  meanB: number;
  /** From the paired permutation test. */
  pValue: number;
}

/**
 * Compares two workflows scored on the same questions (in the same order): mean difference
 * a − b, its paired-bootstrap interval and the paired permutation test's p-value.
 */
export function comparePaired(a: readonly number[], b: readonly number[], options: BootstrapOptions & PermutationOptions = {}): PairedComparison {
  const interval = pairedBootstrap(a, b, options);
  const test = pairedPermutationTest(a, b, options);
  return { ...interval, meanA: mean(a), meanB: mean(b), pValue: test.pValue };
}

/**
 * A p-value as tables print it: three decimals, and `<0.001` below that (a sampled p-value is
 * never 0, and `0.000` would say it is).
 */
export function formatPValue(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
