import type { DagStep } from './types';

/**
 * A plan as index-addressed adjacency lists: `edges[i]` holds the positions of the steps
 * step i depends on, deduplicated, without self-edges and without ids the plan lacks
 * (those are reported as problems of their own, not followed). A duplicated id resolves to
 * its first step, the one a reader of the plan meets first.
 */
export interface DependencyGraph<S extends DagStep> {
  steps: readonly S[];
  positionOf: ReadonlyMap<string, number>;
  edges: number[][];
}

export function dependencyGraph<S extends DagStep>(steps: readonly S[]): DependencyGraph<S> {
  const positionOf = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!positionOf.has(step.id)) positionOf.set(step.id, i);
  });
  const edges = steps.map((step, i) => {
    const deps = new Set<number>();
    for (const dep of step.dependsOn) {
      const at = positionOf.get(dep);
      if (at !== undefined && at !== i) deps.add(at);
    }
    return [...deps];
  });
  return { steps, positionOf, edges };
}

/**
 * Strongly connected components of more than one step (Tarjan, iterative so a long
 * generated chain cannot overflow the stack). In an acyclic graph there are none.
 */
export function cyclicComponents(edges: readonly (readonly number[])[]): number[][] {
  const n = edges.length;
  const order = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  const visit = (node: number) => {
    order[node] = counter;
    low[node] = counter;
    counter += 1;
    stack.push(node);
    onStack[node] = true;
  };
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    visit(root);
    const frames = [{ node: root, next: 0 }];
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const out = edges[frame.node] ?? [];
      if (frame.next < out.length) {
        const dep = out[frame.next]!;
        frame.next += 1;
        if (order[dep] === -1) {
          visit(dep);
          frames.push({ node: dep, next: 0 });
        } else if (onStack[dep]) {
          low[frame.node] = Math.min(low[frame.node]!, order[dep]!);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!);
      if (low[frame.node] === order[frame.node]) {
        const component: number[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = false;
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component.sort((a, b) => a - b));
      }
    }
  }
  return components.sort((a, b) => a[0]! - b[0]!);
}

/**
 * The shortest cycle through the component's earliest step, as positions in "depends on"
 * direction: [a, b, c] means a depends on b, b on c, c on a. A component can hold more
 * steps than one cycle shows; naming one concrete loop is what lets a reader fix it.
 */
export function shortestCycle(component: readonly number[], edges: readonly (readonly number[])[]): number[] {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const dep of edges[node] ?? []) {
      if (dep === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return path;
      }
      if (inside.has(dep) && !cameFrom.has(dep)) {
        cameFrom.set(dep, node);
        queue.push(dep);
      }
    }
  }
  // Unreachable for a real component: every member lies on a cycle through start.
  return [...component];
}
