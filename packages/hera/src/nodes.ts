import type { MethodNode } from '@multihop/core';

/**
 * HERA's chart nodes (all three workflows; `retrieve_experience` only with the experience
 * library): the orchestrator's steps, the execution agents the topology runs, and the prompt
 * each calls. The Reflect Agent and the learning loop's prompts are called by the trainer, at no
 * chart node. Checked against the charts and real runs by the method conformance suite.
 */
export const HERA_NODES: Readonly<Record<string, MethodNode>> = {
  profile: {
    agent: 'Orchestrator',
    description: 'Characterises the query (reasoning type and difficulty) before planning',
    prompts: ['hera.profile'],
  },
  retrieve_experience: {
    agent: 'Orchestrator',
    description: 'Pulls insights for this kind of query from the experience library, favouring high utility and avoiding near-duplicates',
  },
  orchestrate: {
    agent: 'Orchestrator',
    description: 'Designs the agent topology for the query: which agents run, in what order, and what each depends on',
    prompts: ['hera.orchestrate'],
  },
  validate: {
    description: 'Checks the topology is a well-formed plan; an invalid one is repaired once, then replaced by the fallback',
  },
  repair: {
    agent: 'Orchestrator',
    description: 'Fixes an invalid topology, told which checks it failed',
    prompts: ['hera.repair'],
  },
  fallback: {
    description: 'Uses the minimal topology, Retriever then Answer Generator',
  },
  dispatch: {
    description: 'Runs the topology layer by layer until every step has run',
  },
  layer: {
    description: 'Starts every step whose dependencies are done, in parallel, each at its agent’s node',
  },
  QueryDecomposer: {
    agent: 'Query Decomposer',
    description: 'Splits the question into simpler sub-questions',
    prompts: ['hera.decompose'],
  },
  Retriever: {
    agent: 'Retriever',
    description: 'Writes a search query for its (sub-)goal and fetches the top passages',
    prompts: ['hera.retrieve'],
  },
  QueryRewriter: {
    agent: 'Query Rewriter',
    description: 'Reformulates the current query to retrieve better evidence',
    prompts: ['hera.rewrite'],
  },
  EvidenceSelector: {
    agent: 'Evidence Selector',
    description: 'Keeps the passages that bear on the question and drops the rest',
    prompts: ['hera.select'],
  },
  ContextValidator: {
    agent: 'Context Validator',
    description: 'Judges whether the gathered context is enough to answer',
    prompts: ['hera.validate'],
  },
  AnswerGenerator: {
    agent: 'Answer Generator',
    description: 'Answers a (sub-)goal from the passages and the earlier steps’ results',
    prompts: ['hera.answer'],
  },
  ConcludeAgent: {
    agent: 'Conclude Agent',
    description: 'Draws the final answer from the whole trajectory of earlier steps',
    prompts: ['hera.conclude'],
  },
  final: {
    description: 'Merges what the executed steps produced and reads the run’s final answer from it',
  },
};
