import type { MethodNode } from '@multihop/core';

/**
 * PAR²-RAG's chart nodes (all three workflows; each variant draws the subset its stages use):
 * the paper's agent at each node and the prompt it calls. Checked against the charts and real
 * runs by the method conformance suite.
 */
export const PAR2_NODES: Readonly<Record<string, MethodNode>> = {
  plan: {
    agent: 'Planner',
    description: 'Stage 1 (Coverage Anchor): splits the question into several complementary sub-queries, each covering a different part of what must be found',
    prompts: ['par2.planner'],
  },
  retrieve: {
    agent: 'Retriever',
    description: 'Searches the corpus for one sub-query; one branch per sub-query, all running in parallel',
  },
  rerank_dedupe: {
    agent: 'Retriever',
    description: 'Reranks each sub-query’s candidate list and keeps its best few passages (by the model when rerankWith is llm)',
    prompts: ['retriever.rerank'],
  },
  anchor: {
    description: 'Merges the reranked lists, dropping repeats, into the anchored context the reasoning chain starts from',
  },
  generate: {
    agent: 'Writer',
    description: 'Stage 2 (Iterative Chain): writes the response for this hop from the context gathered so far',
    prompts: ['par2.writer'],
  },
  esc: {
    agent: 'Evidence Sufficiency Controller',
    description: 'Decides whether the context already supports the response (stop and answer) or another targeted retrieval is needed (continue)',
    prompts: ['par2.esc'],
  },
  reformulate: {
    agent: 'Query Formulator',
    description: 'Writes a focused follow-up query aimed at the evidence the controller found missing; a query already searched ends the chain',
    prompts: ['par2.query-formulator'],
  },
  chain_retrieve: {
    agent: 'Retriever',
    description: 'Retrieves and reranks passages for the follow-up query and adds the new ones to the context; nothing new ends the chain',
    prompts: ['retriever.rerank'],
  },
  final: {
    description: 'Returns the latest response as the answer, with why the chain stopped (controller said stop, hop budget, no progress)',
  },
};
