import type { StudioEvalSummary } from '../api/client';

/** One workflow on the quality/cost plane: lower cost and higher quality are better. */
export interface ParetoPoint {
  id: string;
  cost: number;
  quality: number;
}

const usable = (p: ParetoPoint): boolean => Number.isFinite(p.cost) && Number.isFinite(p.quality);

/** True when `a` is at least as good as `b` on both axes and strictly better on one. */
export function dominates(a: ParetoPoint, b: ParetoPoint): boolean {
  return a.cost <= b.cost && a.quality >= b.quality && (a.cost < b.cost || a.quality > b.quality);
}

/**
 * The Pareto front: the points no other point dominates (no other is as cheap and as good, and
 * strictly better on one axis). Points with the same cost and quality tie: neither dominates the
 * other, so both stay on the front when nothing else beats them. Points with a missing (NaN,
 * infinite) cost or quality are left out. The front is returned in cost order (ascending; equal
 * costs by quality descending, then by id), so it can be drawn as a step line.
 */
export function paretoFront<T extends ParetoPoint>(points: readonly T[]): T[] {
  const candidates = points.filter(usable);
  return candidates
    .filter((p) => !candidates.some((q) => q !== p && dominates(q, p)))
    .sort((a, b) => a.cost - b.cost || b.quality - a.quality || a.id.localeCompare(b.id));
}

/**
 * The vertices of the front's staircase: from each member, right at its quality to the next
 * member's cost, then up; the last member's level runs on to `xMax` when that is further right.
 * What a `step-after` line through these points draws.
 */
export function frontSteps(front: readonly ParetoPoint[], xMax?: number): Array<{ cost: number; quality: number }> {
  const steps = front.map((p) => ({ cost: p.cost, quality: p.quality }));
  const last = steps[steps.length - 1];
  if (last && xMax !== undefined && Number.isFinite(xMax) && xMax > last.cost) steps.push({ cost: xMax, quality: last.quality });
  return steps;
}

/**
 * The oracle of a router eval (the best candidate per question in hindsight) on the plot's axes:
 * not a workflow, so drawn apart and never on the front. Null unless the eval ran a router and
 * the oracle has the chosen quality figure.
 */
export function oraclePoint(
  summary: { oracle?: { tokens: number; llm_calls: number; correctness: number | null; em: number; f1: number } },
  cost: 'tokens' | 'llm_calls',
  quality: 'correctness' | 'em' | 'f1',
): { cost: number; quality: number } | null {
  const o = summary.oracle;
  if (!o) return null;
  const q = o[quality];
  return typeof q === 'number' ? { cost: o[cost], quality: q } : null;
}

/** The runner's curve across λ (summary.json's `router_curve`): the fields below are read from it. */
type RouterCurve = NonNullable<StudioEvalSummary['router_curve']>;

/**
 * A router's curve across λ (its choice replayed from the candidates' runs) on the plot's axes,
 * cheapest first. Empty unless the eval ran a router with a policy beside every candidate, and
 * the curve has the chosen quality figure (correctness needs a judged eval).
 */
export function routerCurvePoints(
  summary: { router_curve?: Pick<RouterCurve, 'measure'> & { points: ReadonlyArray<Pick<RouterCurve['points'][number], 'lambda' | 'routed_with' | 'quality' | 'em' | 'f1' | 'tokens' | 'llm_calls'>> } },
  cost: 'tokens' | 'llm_calls',
  quality: 'correctness' | 'em' | 'f1',
): Array<{ lambda: number; routedWith: boolean; cost: number; quality: number }> {
  const curve = summary.router_curve;
  if (!curve || (quality === 'correctness' && curve.measure !== 'correctness')) return [];
  return curve.points
    .map((p) => ({ lambda: p.lambda, routedWith: p.routed_with, cost: p[cost], quality: quality === 'correctness' ? p.quality : p[quality] }))
    .sort((a, b) => a.cost - b.cost || a.quality - b.quality);
}
