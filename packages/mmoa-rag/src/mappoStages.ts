/** MAPPO's agents in pipeline order: all three are updated together; the order is the rollout's. */
export const MAPPO_STAGES = [
  { stage: 1, role: 'mmoa-rag-query-rewriter', agent: 'Query Rewriter' },
  { stage: 2, role: 'mmoa-rag-selector', agent: 'Selector' },
  { stage: 3, role: 'mmoa-rag-generator', agent: 'Generator' },
] as const;
