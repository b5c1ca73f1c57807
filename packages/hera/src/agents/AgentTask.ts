import type { RunContext, SearchHit } from '@multihop/core';
import type { Prompt } from '@multihop/prompts';
import type { TopologyStep } from '../topology';
import type { Blackboard } from './Blackboard';

/** One step of the topology as its agent node receives it (the `Send` payload). */
export interface AgentTask {
  question: string;
  step: TopologyStep;
  /** The union of the boards of the steps it depends on. */
  input: Blackboard;
  /** Steps of the same agent with the same dependencies split the ready sub-questions between them. */
  sibling: { index: number; of: number };
}

/** What an agent works with: the run context, its prompt (RoPE-evolved when the workflow applies evolved prompts), its settings. */
export interface AgentRuntime {
  ctx: RunContext;
  promptFor<P extends Prompt<unknown>>(prompt: P): P;
  topK: number;
  maxSubQuestions: number;
  /**
   * Hands the graph a search's passages for the run's evidence. The graph adds them once the
   * step's layer has finished, in step order, so the evidence order (what Recall@k and NDCG@k
   * read) does not depend on which parallel branch's search returned first.
   */
  gathered(search: StepSearch): void;
}

/** One search a step ran: its query and the passages it took. */
export interface StepSearch {
  query: string;
  hits: SearchHit[];
}
