import type { MethodNode } from '@multihop/core';

/**
 * MAO-ARAG's chart nodes (one graph for every workflow, learned, prompted or fixed planner):
 * the planner or executor at each node and the prompt it calls. Checked against the charts and
 * real runs by the method conformance suite.
 */
export const MAO_NODES: Readonly<Record<string, MethodNode>> = {
  plan: {
    agent: 'Planner',
    description: 'Chooses the sequence of executors for the question (a learned policy, the prompted planner, or a fixed workflow)',
    prompts: ['mao-arag.planner'],
  },
  validate: {
    description: 'Validity gate: a workflow outside the allowed set is replaced by R+AG and charged the format penalty',
  },
  fallback: {
    description: 'Runs R+AG in place of an invalid workflow, recording the format penalty (FP)',
  },
  QDS: {
    agent: 'Query Decomposition Serial (QDS)',
    description: 'Splits the question into sub-questions answered one after another, each a new planner turn',
    prompts: ['mao-arag.decompose-serial'],
  },
  QDS_next: {
    agent: 'Query Decomposition Serial (QDS)',
    description: 'Rewrites the next sub-question with the answers of the earlier ones',
    prompts: ['mao-arag.revise-serial'],
  },
  QDP: {
    agent: 'Query Decomposition Parallel (QDP)',
    description: 'Splits the question into independent sub-questions answered in parallel',
    prompts: ['mao-arag.decompose-parallel'],
  },
  sub_plan: {
    agent: 'Planner',
    description: 'Chooses the executor sequence for one sub-question (one branch per sub-question after a parallel split)',
    prompts: ['mao-arag.sub-planner'],
  },
  dispatch: {
    description: 'Sends the turn to its next executor, the next sub-question, the answer summary, or the end (turn bound included)',
  },
  QR: {
    agent: 'Query Rewriter (QR)',
    description: 'Rewrites the (sub-)question into a clearer search query',
    prompts: ['mao-arag.query-rewrite'],
  },
  R: {
    agent: 'Retrieval Agent (R)',
    description: 'Retrieves the top-k passages for the current query; no model call',
  },
  DS: {
    agent: 'Document Selector (DS)',
    description: 'Keeps the retrieved passages that help answer, by their indices',
    prompts: ['mao-arag.document-select'],
  },
  AG: {
    agent: 'Answer Generator (AG)',
    description: 'Answers the (sub-)question from the passages at hand, or from the model alone without retrieval',
    prompts: ['mao-arag.answer'],
  },
  AS: {
    agent: 'Answer Summarizer (AS)',
    description: 'Combines the sub-questions’ answers into the answer to the original question',
    prompts: ['mao-arag.summarise'],
  },
  final: {
    description: 'Returns the answer, with the turns, cost and penalties of the run',
  },
};
