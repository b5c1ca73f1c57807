import { topologyProblems, type ExecutionAgent, type RawTopology, type Topology } from '../topology';

/**
 * SELECTALTERNATIVE (Algorithm 6 Option A): the pool agent that can take the failing agent's
 * place (same kind of work). The Retriever has none: no other agent searches.
 */
export const ALTERNATIVES: Partial<Record<ExecutionAgent, ExecutionAgent>> = {
  'Answer Generator': 'Conclude Agent',
  'Conclude Agent': 'Answer Generator',
  'Query Decomposer': 'Query Rewriter',
  'Query Rewriter': 'Query Decomposer',
  'Evidence Selector': 'Context Validator',
  'Context Validator': 'Evidence Selector',
};

/**
 * CREATENEWAGENT (Algorithm 6 Option B): the agents inserted after the failing one. The paper's
 * agent is new; here it is drawn from the pool: after a search, a check for the missing fact and
 * a second search; after an answer, a Conclude Agent over everything gathered; before retrieval,
 * a Retriever.
 */
export const INSERTIONS: Record<ExecutionAgent, ExecutionAgent[]> = {
  Retriever: ['Context Validator', 'Retriever'],
  'Evidence Selector': ['Context Validator', 'Retriever'],
  'Context Validator': ['Retriever'],
  'Query Decomposer': ['Retriever'],
  'Query Rewriter': ['Retriever'],
  'Answer Generator': ['Conclude Agent'],
  'Conclude Agent': ['Context Validator', 'Retriever', 'Answer Generator'],
};

const raw = (t: Topology, order: Topology['execution_order'], why: string): RawTopology => ({
  query_profile: `${t.query_profile} (mutation: ${why})`,
  selected_agents: [...new Set(order.map((s) => s.agent))],
  execution_order: order.map((s) => ({ step: s.step, agent: s.agent, depends_on: [...s.depends_on], ...(s.query ? { query: s.query } : {}) })),
  mode: t.mode,
});

/**
 * Algorithm 6: for the failing agent, Γ with it replaced by its alternative (every step it runs),
 * and Γ with the insertion after its last step (the steps that depended on that step now depend
 * on the inserted block's end). Only candidates that validate are returned.
 */
export function mutateTopology(topology: Topology, failed: ExecutionAgent, maxSteps = 12): Array<{ kind: 'replace' | 'augment'; topology: RawTopology }> {
  const out: Array<{ kind: 'replace' | 'augment'; topology: RawTopology }> = [];
  const alternative = ALTERNATIVES[failed];
  if (alternative && topology.execution_order.some((s) => s.agent === failed)) {
    const order = topology.execution_order.map((s) => (s.agent === failed ? { ...s, agent: alternative } : s));
    out.push({ kind: 'replace', topology: raw(topology, order, `${failed} → ${alternative}`) });
  }
  const at = [...topology.execution_order].reverse().find((s) => s.agent === failed);
  if (at) {
    let next = Math.max(0, ...topology.execution_order.map((s) => Number(s.step)).filter(Number.isFinite)) + 1;
    let prev = at.step;
    const block = INSERTIONS[failed].map((agent) => {
      const s = { step: String(next++), agent, depends_on: [prev] };
      prev = s.step;
      return s;
    });
    const order = [...topology.execution_order.map((s) => (s.depends_on.includes(at.step) ? { ...s, depends_on: s.depends_on.map((d) => (d === at.step ? prev : d)) } : s)), ...block];
    out.push({ kind: 'augment', topology: raw(topology, order, `${INSERTIONS[failed].join(' → ')} after ${failed}`) });
  }
  return out.filter((c) => topologyProblems(c.topology, maxSteps).length === 0);
}
