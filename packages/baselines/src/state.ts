import { Annotation } from '@langchain/langgraph';
import type { Query, SearchHit, WorkflowOutput } from '@multihop/core';
import { last, type GraphRuntime } from '@multihop/engine-langgraph';
import { ragAnswerPrompt } from './prompts';

export interface ReactStep {
  thought: string;
  action: 'search' | 'finish';
  input: string;
  observation?: string;
}

/** One state shape for every baseline graph; each uses the fields its method needs. */
export const BaselineState = Annotation.Root({
  question: Annotation<string>(),
  /** The next retrieval query (the question, an IRCoT sentence, a ReAct search). */
  query: last<string>(() => ''),
  /** Passages gathered so far, deduplicated, in the order they arrived. */
  passages: last<SearchHit[]>(() => []),
  /** IRCoT's chain of thought so far. */
  thoughts: last<string[]>(() => []),
  /** ReAct's thought / action / observation steps so far. */
  steps: last<ReactStep[]>(() => []),
  finalAnswer: last<string | null>(() => null),
  reasoning: last<string>(() => ''),
  /** Set when the step bound ended the loop before the method stated an answer. */
  stopReason: last<string | null>(() => null),
});

export type BaselineStateType = typeof BaselineState.State;

/** Every baseline starts from the question, which is also its first retrieval query. */
export function baselineInput(query: Query) {
  return { question: query.text, query: query.text };
}

/** A baseline's answer and data; a loop cut by its step bound keeps its answer, labelled with the reason. */
export function baselineOutput(final: BaselineStateType): WorkflowOutput {
  return {
    answer: final.finalAnswer ?? '',
    ...(final.stopReason ? { stopReason: final.stopReason } : {}),
    data: {
      ...(final.reasoning ? { reasoning: final.reasoning } : {}),
      ...(final.thoughts.length ? { thoughts: final.thoughts } : {}),
      ...(final.steps.length ? { steps: final.steps.map(({ observation: _o, ...s }) => s) } : {}),
    },
  };
}

/** Adds new hits to the gathered passages, skipping ones already there. */
export function gather(passages: SearchHit[], hits: SearchHit[]): SearchHit[] {
  const known = new Set(passages.map((p) => p.id));
  return [...passages, ...hits.filter((h) => !known.has(h.id))];
}

/**
 * The node a bounded loop (IRCoT, ReAct) ends in when it reaches its step bound without an
 * answer: the passages it gathered are answered once, and the run is labelled `step-budget`.
 */
export async function answerAtBound(state: BaselineStateType, { ctx }: GraphRuntime) {
  const { output } = await ctx.model.call({ prompt: ragAnswerPrompt, vars: { question: state.question, passages: state.passages } });
  return { finalAnswer: output.answer, reasoning: output.reasoning, stopReason: 'step-budget' };
}
