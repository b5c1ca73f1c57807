import type { MethodNode } from '@multihop/core';

/**
 * The baselines' chart nodes, one table for the five workflows (a node name two of them share,
 * `answer`, `reason`, `retrieve`, `answer_at_bound`, is described for both): what each node does
 * and the prompts it calls. Checked against the charts and real runs by the method conformance
 * suite. The baselines are single-model pipelines, so no node names a paper's agent.
 */
export const BASELINE_NODES: Readonly<Record<string, MethodNode>> = {
  answer: {
    description: 'Answers in one model call: from the question alone (direct) or from the retrieved passages (single-turn RAG)',
    prompts: ['baseline.direct', 'baseline.rag-answer'],
  },
  reason: {
    description: 'Reasons step by step before answering (chain-of-thought), or adds one sentence to the reasoning chain, which becomes the next query unless it states the answer (IRCoT)',
    prompts: ['baseline.cot', 'baseline.ircot-step'],
  },
  retrieve: {
    description: 'Retrieves passages once for the question (single-turn RAG), or for the question and then for each new reasoning sentence (IRCoT); a repeated query or no new passage ends the chain',
  },
  answer_at_bound: {
    description: 'When the step bound is reached or the loop stops making progress, answers once from every passage gathered',
    prompts: ['baseline.rag-answer'],
  },
  think: {
    description: 'ReAct: writes a thought and picks the next action, search[query] or finish[answer]',
    prompts: ['baseline.react-step'],
  },
  search: {
    description: 'ReAct: runs the chosen search; its retrieved passages are the observation (a repeated query or nothing new ends the loop)',
  },
};
