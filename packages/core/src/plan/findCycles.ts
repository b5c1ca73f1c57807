import { cyclicComponents, dependencyGraph, shortestCycle } from './dependencyGraph';
import type { DagStep } from './types';

/**
 * One dependency cycle per knot of mutually dependent steps, as step ids in "depends on"
 * order (`['1', '3']`: step 1 depends on 3, which depends on 1), each starting at its
 * earliest step in plan order. A step depending on itself is a self-reference, not listed
 * here. Empty for a DAG.
 */
export function findCycles(plan: { readonly steps: readonly DagStep[] }): string[][] {
  const graph = dependencyGraph(plan.steps);
  return cyclicComponents(graph.edges).map((component) =>
    shortestCycle(component, graph.edges).map((at) => plan.steps[at]!.id),
  );
}
