import type { Question, RunResult } from '@multihop/core';
import { f1Score, topologyMetrics, transitionEntropy } from '@multihop/metrics';
import { trajectoryOfTopology, type Topology } from './topology';

/**
 * HERA's per-run topology metrics (§5.4.2), for `multihop eval` to average: agents used |V|,
 * node efficiency F1/|V|, self-loops, cycles and diameter of the executed topology's graph
 * (trajectoryOfTopology), with the F1 they are computed from. A run that executed no topology
 * (it failed before) scores zeros. Transition entropy is over a window of runs, not one run:
 * see transitionEntropyOfRuns.
 */
export function heraScore(result: RunResult, question: Pick<Question, 'answer' | 'aliases'>): Record<string, number> {
  const f1 = f1Score(result.answer, [question.answer, ...(question.aliases ?? [])]).f1;
  const topology = result.data?.['topology'] as Topology | null | undefined;
  if (!topology) return { F1: f1, agents: 0, nodeEfficiency: 0, selfLoops: 0, cycles: 0, diameter: 0, steps: 0 };
  const m = topologyMetrics(trajectoryOfTopology(topology), f1);
  return { F1: f1, agents: m.agents, nodeEfficiency: m.nodeEfficiency, selfLoops: m.selfLoops, cycles: m.cycles, diameter: m.diameter, steps: topology.execution_order.length };
}

/**
 * H_trans (§5.4.1) over a window of runs: the Shannon entropy (bits) of the pooled distribution
 * of agent-to-agent transitions of the runs' executed topologies. The joint form of the paper's
 * formula (metrics' transitionEntropy), not the conditional its prose names; see docs/methods/hera.md.
 */
export function transitionEntropyOfRuns(results: readonly RunResult[]): number {
  const graphs = results.flatMap((r) => {
    const topology = r.data?.['topology'] as Topology | null | undefined;
    return topology ? [trajectoryOfTopology(topology)] : [];
  });
  return transitionEntropy(graphs);
}
