import { InputError } from '@multihop/core';

/**
 * Topology metrics of HERA §5.4. A run's trajectory is a graph G_τ = (V, E): nodes are the
 * agents it invoked, edges the transitions between them in the order they happened (repeats
 * kept, so a transition taken twice is two edges).
 */
export interface TrajectoryEdge {
  from: string;
  to: string;
}

export interface TrajectoryGraph {
  /** Agents invoked; endpoints of edges count as nodes even when not listed here. */
  nodes: readonly string[];
  edges: readonly TrajectoryEdge[];
}

export interface TopologyMetrics {
  /** (a) |V|: distinct agents in the trajectory. */
  agents: number;
  /** (b) F1(τ) / |V|; 0 for a trajectory with no agent. */
  nodeEfficiency: number;
  /** (c) Self-transitions, counted with repetition ("frequency of self-transitions"). */
  selfLoops: number;
  /** (d) Simple directed cycles of length ≥ 2 over the distinct edges. */
  cycles: number;
  /** (e) The longest directed shortest path between two agents where one reaches the other. */
  diameter: number;
}

/** The trajectory of a run that invoked agents one after another. */
export function trajectoryFromSequence(agents: readonly string[]): TrajectoryGraph {
  return { nodes: [...agents], edges: agents.slice(1).map((to, i) => ({ from: agents[i] as string, to })) };
}

function nodesOf(graph: TrajectoryGraph): string[] {
  return [...new Set([...graph.nodes, ...graph.edges.flatMap((e) => [e.from, e.to])])];
}

/** Distinct successors of each node, self-loops left out (they are metric (c), not paths). */
function successors(graph: TrajectoryGraph): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>(nodesOf(graph).map((n) => [n, new Set<string>()]));
  for (const { from, to } of graph.edges) if (from !== to) next.get(from)?.add(to);
  return next;
}

/**
 * Counts each simple cycle once, rooted at its earliest node in a fixed order. HERA counts
 * "closed-loop paths" as iterative reasoning; a self-transition is reported by `selfLoops`
 * and not counted again here. Trajectories have a handful of agents, so enumeration is cheap.
 */
function countCycles(next: Map<string, Set<string>>): number {
  const order = [...next.keys()];
  const position = new Map(order.map((n, i) => [n, i]));
  let cycles = 0;
  for (const [startIndex, start] of order.entries()) {
    const onPath = new Set<string>([start]);
    const walk = (node: string): void => {
      for (const to of next.get(node) ?? []) {
        if (to === start) {
          if (node !== start) cycles += 1;
        } else if (!onPath.has(to) && (position.get(to) ?? -1) > startIndex) {
          onPath.add(to);
          walk(to);
          onPath.delete(to);
        }
      }
    };
    walk(start);
  }
  return cycles;
}

/**
 * HERA reads the diameter as "maximum reasoning depth", so paths follow the direction of the
 * transitions. A trajectory is rarely strongly connected (a chain never is), so pairs where
 * neither agent reaches the other are skipped rather than making the diameter infinite.
 */
function diameter(next: Map<string, Set<string>>): number {
  let longest = 0;
  for (const source of next.keys()) {
    const distance = new Map<string, number>([[source, 0]]);
    const queue = [source];
    for (let head = 0; head < queue.length; head += 1) {
      const node = queue[head] as string;
      const d = distance.get(node) ?? 0;
      for (const to of next.get(node) ?? []) {
        if (!distance.has(to)) {
          distance.set(to, d + 1);
          longest = Math.max(longest, d + 1);
          queue.push(to);
        }
      }
    }
  }
  return longest;
}

/** HERA §5.4.2 metrics (a)–(e) of one trajectory, given the F1 its run scored. */
export function topologyMetrics(graph: TrajectoryGraph, f1: number): TopologyMetrics {
  const agents = nodesOf(graph).length;
  const next = successors(graph);
  return {
    agents,
    nodeEfficiency: agents === 0 ? 0 : f1 / agents,
    selfLoops: graph.edges.filter((e) => e.from === e.to).length,
    cycles: countCycles(next),
    diameter: diameter(next),
  };
}

/**
 * HERA §5.4.1: H = −Σ P(Nᵢ→Nⱼ) log₂ P(Nᵢ→Nⱼ), with P the empirical distribution of all
 * transitions (self-transitions included) pooled over the given runs. The paper writes the
 * joint transition probability in the sum, so that is what is used, not the conditional
 * P(Nⱼ|Nᵢ); the base (bits) is this package's choice, the paper gives none. 0 without transitions.
 */
export function transitionEntropy(runs: readonly TrajectoryGraph[]): number {
  const counts = new Map<string, number>();
  let total = 0;
  for (const run of runs) {
    for (const { from, to } of run.edges) {
      const key = JSON.stringify([from, to]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total += 1;
    }
  }
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / total;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/**
 * HERA computes the entropy "using a sliding window over learning": one value per full window
 * of `window` consecutive runs (run i−window+1 … i), in run order.
 */
export function transitionEntropySeries(runs: readonly TrajectoryGraph[], window: number): number[] {
  if (!Number.isInteger(window) || window < 1) throw new InputError(`window must be a positive integer, got ${window}`, { field: 'window' });
  const series: number[] = [];
  for (let end = window; end <= runs.length; end += 1) series.push(transitionEntropy(runs.slice(end - window, end)));
  return series;
}
