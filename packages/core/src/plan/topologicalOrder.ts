import { dependencyGraph } from './dependencyGraph';
import type { DagStep } from './types';
import { orderingProblems, planError } from './validatePlan';

/**
 * The steps in an order where every step comes after the steps it depends on. Stable: of the
 * steps that could go next, the earliest in the plan goes first, so a plan already written in
 * order comes back unchanged (what a sequential executor such as OPERA's expects).
 * Throws a PlanError on duplicate ids, unknown dependencies, self-dependencies and cycles.
 */
export function topologicalOrder<S extends DagStep>(plan: { readonly steps: readonly S[] }): S[] {
  return orderedPositions(plan).map((at) => plan.steps[at]!);
}

/**
 * The steps grouped into layers: layer 0 depends on nothing, layer k on steps of earlier layers
 * with at least one in layer k−1. All steps of a layer can run at once (HERA's parallel mode,
 * PAR²'s fan-out), and the layers are as few as the longest dependency chain allows. Each
 * layer keeps plan order. Throws like `topologicalOrder`.
 */
export function topologicalLayers<S extends DagStep>(plan: { readonly steps: readonly S[] }): S[][] {
  const { edges } = dependencyGraph(plan.steps);
  const depth = new Array<number>(plan.steps.length).fill(0);
  const layers: S[][] = [];
  for (const at of orderedPositions(plan)) {
    const d = Math.max(-1, ...(edges[at] ?? []).map((dep) => depth[dep]!)) + 1;
    depth[at] = d;
  }
  plan.steps.forEach((step, at) => {
    const d = depth[at]!;
    (layers[d] ??= []).push(step);
  });
  return layers;
}

function orderedPositions<S extends DagStep>(plan: { readonly steps: readonly S[] }): number[] {
  const problems = orderingProblems(plan);
  if (problems.length > 0) throw planError(problems);
  const { edges } = dependencyGraph(plan.steps);
  const dependents: number[][] = plan.steps.map(() => []);
  const waitingOn = edges.map((deps) => deps.length);
  edges.forEach((deps, at) => deps.forEach((dep) => dependents[dep]!.push(at)));
  // Plans are a handful of steps, so a sorted array beats a heap for clarity at no real cost.
  const ready = waitingOn.flatMap((n, at) => (n === 0 ? [at] : []));
  const order: number[] = [];
  while (ready.length > 0) {
    const at = ready.shift()!;
    order.push(at);
    for (const next of dependents[at]!) {
      waitingOn[next]! -= 1;
      if (waitingOn[next] === 0) insertSorted(ready, next);
    }
  }
  return order;
}

function insertSorted(sorted: number[], value: number): void {
  const at = sorted.findIndex((v) => v > value);
  if (at === -1) sorted.push(value);
  else sorted.splice(at, 0, value);
}
