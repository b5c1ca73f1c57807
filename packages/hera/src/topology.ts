import { MultihopError, validatePlan } from '@multihop/core';
import type { TrajectoryGraph } from '@multihop/metrics';

/**
 * HERA's agent pool (hera.md §4, Implementation Details): the core agents of multi-agent RAG.
 * The Reflect Agent is in the pool too, but its work is the learning loop's group reflection
 * (Algorithm 2, REFLECTONGROUP), so a topology that runs a query cannot schedule it.
 */
export const HERA_AGENTS = [
  'Query Decomposer',
  'Retriever',
  'Answer Generator',
  'Query Rewriter',
  'Evidence Selector',
  'Context Validator',
  'Reflect Agent',
  'Conclude Agent',
] as const;
export type HeraAgent = (typeof HERA_AGENTS)[number];

/** The agents a topology may schedule: every agent but the Reflect Agent. */
export const EXECUTION_AGENTS = HERA_AGENTS.filter((a): a is Exclude<HeraAgent, 'Reflect Agent'> => a !== 'Reflect Agent');
export type ExecutionAgent = (typeof EXECUTION_AGENTS)[number];

/** The chart node of each execution agent (node ids carry no spaces; the label is the paper's name). */
export const AGENT_NODES: Record<ExecutionAgent, string> = {
  'Query Decomposer': 'QueryDecomposer',
  Retriever: 'Retriever',
  'Answer Generator': 'AnswerGenerator',
  'Query Rewriter': 'QueryRewriter',
  'Evidence Selector': 'EvidenceSelector',
  'Context Validator': 'ContextValidator',
  'Conclude Agent': 'ConcludeAgent',
};

/** One entry of `execution_order`: the paper's `{"step": 1, "agent": …, "depends_on": []}`. */
export interface TopologyStep {
  step: string;
  agent: ExecutionAgent;
  depends_on: string[];
  /** Optional: the sub-question this step works on, when the orchestrator names one. */
  query?: string;
}

/** Γ as the orchestrator emits it (hera.md Appendix B, "Orchestrator: topology sampling"). */
export interface Topology {
  query_profile: string;
  selected_agents: ExecutionAgent[];
  execution_order: TopologyStep[];
  mode: 'sequential' | 'parallel';
}

/** The orchestrator's reply before validation: any agent name, any step ids. */
export interface RawTopology {
  query_profile?: string;
  selected_agents?: string[];
  execution_order?: Array<{ step: string | number; agent: string; depends_on?: Array<string | number>; query?: string }>;
  mode?: string;
}

export type TopologyProblemKind = 'empty' | 'unknown-agent' | 'learning-agent' | 'no-answer' | 'too-many-steps' | 'duplicate-step' | 'self-reference' | 'unknown-step' | 'dangling-placeholder' | 'cycle';

export interface TopologyProblem {
  kind: TopologyProblemKind;
  step?: string;
  message: string;
}

/** A topology that cannot run: the message names every problem and the steps concerned. */
export class TopologyError extends MultihopError {
  constructor(readonly problems: TopologyProblem[]) {
    super('HERA_TOPOLOGY', `invalid topology, ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}:\n${problems.map((p) => `- ${p.message}`).join('\n')}`);
  }
}

const squash = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');
const BY_SQUASHED = new Map<string, HeraAgent>(HERA_AGENTS.map((a) => [squash(a), a]));
// Names small orchestrators write for the same agents ("Conclude", "Validator", "Decomposer").
for (const agent of HERA_AGENTS) BY_SQUASHED.set(squash(agent.split(' ').at(-1) === 'Agent' ? agent.split(' ')[0]! : agent.split(' ').at(-1)!), agent);
BY_SQUASHED.set('generator', 'Answer Generator');
BY_SQUASHED.set('retrieval', 'Retriever');

/** The pool's agent a name refers to, case, spacing and punctuation aside; undefined for none. */
export function agentNamed(name: string): HeraAgent | undefined {
  return BY_SQUASHED.get(squash(name));
}

/**
 * Every reason `raw` cannot run, in the order a reader meets them: no steps, agents outside the
 * execution pool, more steps than `maxSteps`, nothing that answers, then the dependency graph's
 * problems as core's plan checks report them (duplicate ids, a step depending on itself, a
 * dependency on a step that does not exist, cycles with one loop shown). Empty when valid.
 */
export function topologyProblems(raw: RawTopology, maxSteps = Number.POSITIVE_INFINITY): TopologyProblem[] {
  const order = raw.execution_order ?? [];
  const problems: TopologyProblem[] = [];
  if (order.length === 0) problems.push({ kind: 'empty', message: 'the topology has no steps (execution_order is empty)' });
  if (order.length > maxSteps) problems.push({ kind: 'too-many-steps', message: `the topology has ${order.length} steps, more than the ${maxSteps} allowed` });
  for (const entry of order) {
    const agent = agentNamed(String(entry.agent ?? ''));
    if (agent === undefined) {
      problems.push({ kind: 'unknown-agent', step: String(entry.step), message: `step ${entry.step} names "${entry.agent}", which is not an agent of the pool (${EXECUTION_AGENTS.join(', ')})` });
    } else if (agent === 'Reflect Agent') {
      problems.push({ kind: 'learning-agent', step: String(entry.step), message: `step ${entry.step} names the Reflect Agent, which reflects on groups of runs in the learning loop and cannot run in a topology` });
    }
  }
  if (order.length > 0 && !order.some((e) => ['Answer Generator', 'Conclude Agent'].includes(agentNamed(String(e.agent ?? '')) ?? ''))) {
    problems.push({ kind: 'no-answer', message: 'no step answers the query: the topology needs an Answer Generator or a Conclude Agent' });
  }
  const plan = { steps: order.map((e) => ({ id: String(e.step), dependsOn: (e.depends_on ?? []).map(String) })) };
  for (const problem of validatePlan(plan)) {
    if (problem.kind === 'empty') continue;
    problems.push({ kind: problem.kind, ...(problem.step !== undefined ? { step: problem.step } : {}), message: problem.message });
  }
  return problems;
}

/** The topology with the pool's agent names, string step ids and the steps listed once; throws TopologyError when it cannot run. */
export function toTopology(raw: RawTopology, maxSteps?: number): Topology {
  const problems = topologyProblems(raw, maxSteps);
  if (problems.length > 0) throw new TopologyError(problems);
  const execution_order = (raw.execution_order ?? []).map((e): TopologyStep => ({
    step: String(e.step),
    agent: agentNamed(String(e.agent)) as ExecutionAgent,
    depends_on: [...new Set((e.depends_on ?? []).map(String))],
    ...(e.query ? { query: e.query } : {}),
  }));
  const selected = [...new Set(execution_order.map((e) => e.agent))];
  const parallel = execution_order.some((a, i) => execution_order.some((b, j) => j > i && !dependsOn(execution_order, a.step, b.step) && !dependsOn(execution_order, b.step, a.step)));
  return { query_profile: raw.query_profile ?? '', selected_agents: selected, execution_order, mode: parallel ? 'parallel' : 'sequential' };
}

/** Whether step `a` depends on step `b`, directly or through other steps. */
function dependsOn(order: readonly TopologyStep[], a: string, b: string): boolean {
  const seen = new Set<string>();
  const todo = [...(order.find((s) => s.step === a)?.depends_on ?? [])];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (next === b) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(order.find((s) => s.step === next)?.depends_on ?? []));
  }
  return false;
}

/**
 * The topology a run falls back to when the orchestrator's is still invalid after its repair
 * round: single-turn RAG, Retriever → Answer Generator (the cheapest topology that answers from
 * evidence; the paper names no fallback).
 */
export const FALLBACK_TOPOLOGY: Topology = {
  query_profile: 'fallback: the orchestrator gave no valid topology',
  selected_agents: ['Retriever', 'Answer Generator'],
  execution_order: [
    { step: '1', agent: 'Retriever', depends_on: [] },
    { step: '2', agent: 'Answer Generator', depends_on: ['1'] },
  ],
  mode: 'sequential',
};

/**
 * A run's trajectory graph G_τ = (V, E) for HERA's topology metrics (§5.4.2): nodes are the
 * agents the topology ran, edges the interactions its dependencies make (the agent of each
 * dependency → the agent of the step), one per dependency, so an agent used twice in a chain
 * (Retriever → Answer Generator → Retriever) makes a cycle and a Retriever feeding a Retriever
 * a self-loop.
 */
export function trajectoryOfTopology(topology: Pick<Topology, 'execution_order'>): TrajectoryGraph {
  const agentOf = new Map(topology.execution_order.map((s) => [s.step, s.agent]));
  return {
    nodes: [...new Set(topology.execution_order.map((s) => s.agent))],
    edges: topology.execution_order.flatMap((s) => s.depends_on.map((d) => ({ from: agentOf.get(d) ?? d, to: s.agent }))),
  };
}
