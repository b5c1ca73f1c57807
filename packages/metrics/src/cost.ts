import { InputError, addUsage, emptyUsage, totalTokens, type RoleUsage, type Usage } from '@multihop/core';

/**
 * The p-th percentile (0 ≤ p ≤ 100) by the nearest-rank method: the smallest value with at
 * least p% of the values at or below it (for p = 0, the minimum). Nearest rank always returns
 * a latency that was really measured, which keeps reported figures honest for small runs
 * where interpolation would invent a value between two calls.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new InputError('percentile of an empty list', { field: 'values' });
  if (!(p >= 0 && p <= 100)) throw new InputError(`percentile must be in [0, 100], got ${p}`, { field: 'p' });
  checkFinite(values);
  const sorted = [...values].sort((a, b) => a - b);
  // p·n before dividing: (p / 100)·n can land a hair above an integer and skip a rank.
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1] as number;
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

export interface RoleCost extends RoleUsage {
  totalTokens: number;
}

export interface CostSummary {
  runs: number;
  /** The sum of all usages (with `addUsage`, so `estimated` marks any estimated count). */
  total: Usage;
  totalTokens: number;
  byRole: Record<string, RoleCost>;
  /** Means per run, for comparing workflows evaluated on different numbers of questions. */
  perRun: { llmCalls: number; totalTokens: number; retrievalCalls: number };
  /** Nearest-rank percentiles; null when there is no latency to summarise. */
  latencyMs: LatencySummary | null;
}

export interface CostOptions {
  /** Latencies to summarise; defaults to each usage's `wallMs` (one per run). */
  latenciesMs?: readonly number[];
}

/** Count, mean, nearest-rank p50 and p95, and maximum; null for no latencies. A value that is not a finite number is refused. */
export function summarizeLatency(latenciesMs: readonly number[]): LatencySummary | null {
  if (latenciesMs.length === 0) return null;
  checkFinite(latenciesMs);
  return {
    count: latenciesMs.length,
    mean: latenciesMs.reduce((a, b) => a + b, 0) / latenciesMs.length,
    p50: percentile(latenciesMs, 50),
    p95: percentile(latenciesMs, 95),
    // A loop, not Math.max(...values): spreading a few hundred thousand arguments overflows the stack.
    max: latenciesMs.reduce((a, b) => (b > a ? b : a), -Infinity),
  };
}

/** A NaN sorts nowhere in particular and would turn a percentile into a value that looks measured. */
function checkFinite(values: readonly number[]): void {
  const at = values.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (at >= 0) throw new InputError(`value ${at} is ${String(values[at])}, not a finite number`, { field: `values[${at}]` });
}

/** Aggregates the usage of many runs (one per question): calls and tokens per role, retrieval calls, latency. */
export function aggregateCost(usages: readonly Usage[], options: CostOptions = {}): CostSummary {
  const total = usages.reduce(addUsage, emptyUsage());
  const tokens = totalTokens(total);
  const byRole: Record<string, RoleCost> = {};
  for (const [role, r] of Object.entries(total.byRole)) byRole[role] = { ...r, totalTokens: totalTokens(r) };
  const runs = usages.length;
  const perRun = (n: number): number => (runs === 0 ? 0 : n / runs);
  return {
    runs,
    total,
    totalTokens: tokens,
    byRole,
    perRun: { llmCalls: perRun(total.llmCalls), totalTokens: perRun(tokens), retrievalCalls: perRun(total.retrievalCalls) },
    latencyMs: summarizeLatency(options.latenciesMs ?? usages.map((u) => u.wallMs)),
  };
}
