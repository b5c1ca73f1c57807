import type { MethodNode } from '@multihop/core';

/**
 * MMOA-RAG's chart nodes (all three workflows; the S+G and QR+G ablations draw subsets): the
 * paper's agent at each node, the prompt it calls, and the guards that apply each agent's
 * penalty. Checked against the charts and real runs by the method conformance suite.
 */
export const MMOA_NODES: Readonly<Record<string, MethodNode>> = {
  rewrite: {
    agent: 'Query Rewriter',
    description: 'Turns the question into sub-questions, one search each',
    prompts: ['mmoa-rag.query-rewriter'],
  },
  checkRewrite: {
    description: 'Checks the Query Rewriter’s output against its penalty rule (too many sub-questions)',
  },
  rewriterPenalty: {
    description: 'Charges the Query Rewriter its penalty (−0.5) in the reward record',
  },
  retrieve: {
    agent: 'Retriever',
    description: 'Fetches the top-K candidate documents for each sub-question (or for the question itself without the Query Rewriter); not trained',
  },
  select: {
    agent: 'Selector',
    description: 'Picks the useful candidates by replying with their document IDs only',
    prompts: ['mmoa-rag.selector'],
  },
  checkSelection: {
    description: 'Checks the Selector’s reply for a format error or a repeated document ID',
  },
  selectorPenalty: {
    description: 'Charges the Selector its penalty (−1) in the reward record',
  },
  generate: {
    agent: 'Generator',
    description: 'Writes the answer from the selected documents (every candidate without the Selector)',
    prompts: ['mmoa-rag.generator'],
  },
  checkAnswer: {
    description: 'Checks the Generator’s answer against its length limit',
  },
  generatorPenalty: {
    description: 'Charges the Generator its penalty (−0.5) for an over-long answer in the reward record',
  },
};
