import type { MethodNode } from '@multihop/core';

/**
 * OPERA's chart nodes (all its workflows; the ablations draw subsets, and `synthesize` replaces
 * `lastStep` with `synthesis: 'llm'`): the paper's agent at each node and the prompt it calls.
 * Checked against the charts and real runs by the method conformance suite.
 */
export const OPERA_NODES: Readonly<Record<string, MethodNode>> = {
  plan: {
    agent: 'Plan Agent',
    description: 'Breaks the question into ordered sub-goals; a later sub-goal points at an earlier answer through a placeholder',
    prompts: ['opera.plan'],
  },
  checkPlan: {
    description: 'Checks the plan is well formed; a malformed plan is repaired while repair rounds remain, then replaced by the fallback',
  },
  repairPlan: {
    agent: 'Plan Agent',
    description: 'Rewrites a malformed plan, told what was wrong with it',
    prompts: ['opera.plan-repair'],
  },
  fallbackPlan: {
    description: 'Falls back to a one-step plan: the whole question as its only sub-goal',
  },
  nextSubGoal: {
    description: 'Takes the next planned sub-goal, or moves to the final answer once all are done or the step budget is spent',
  },
  checkDependencies: {
    description: 'Checks that every step this sub-goal depends on has an answer',
  },
  skipSubGoal: {
    description: 'Skips a sub-goal whose earlier steps went unanswered, recording it as skipped',
  },
  resolve: {
    description: 'Fills the sub-goal’s placeholders with the answers of earlier steps kept in the trajectory memory',
  },
  retrieve: {
    agent: 'Retriever',
    description: 'Fetches the top-k sentence-level chunks for the current query',
  },
  analyze: {
    agent: 'Analysis-Answer Agent',
    description: 'Reads the retrieved sentences for the sub-goal: answers it when they suffice, otherwise says what is missing',
    prompts: ['opera.analysis-answer'],
  },
  judge: {
    description: 'Routes on the analysis: sufficient evidence is recorded, otherwise the query is rewritten while rewrites remain',
  },
  rewrite: {
    agent: 'Rewrite Agent',
    description: 'Reformulates the retrieval query for the sub-goal, guided by what the analysis found missing',
    prompts: ['opera.rewrite'],
  },
  record: {
    description: 'Stores the sub-goal, its answer and its status in the trajectory memory',
  },
  lastStep: {
    description: 'Gives the answer of the last executed step as the final answer (the paper’s form)',
  },
  synthesize: {
    description: 'Composes the final answer from the whole trajectory in one model call (this project’s option, `synthesis: llm`; not in the paper)',
    prompts: ['opera.synthesis'],
  },
};
