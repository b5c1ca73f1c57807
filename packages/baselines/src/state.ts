import { Annotation, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { MultihopError, type RunContext, type SearchHit } from '@multihop/core';
import { ragAnswerPrompt } from './prompts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

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
  stopReason: last<string | undefined>(() => undefined),
});

export type BaselineStateType = typeof BaselineState.State;

export function ctxOf(config: LangGraphRunnableConfig): RunContext {
  const ctx = config.configurable?.['ctx'] as RunContext | undefined;
  if (!ctx) throw new MultihopError('BASELINE_RUNTIME', 'baseline graph invoked without its run context (configurable.ctx)');
  return ctx;
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
export async function answerAtBound(state: BaselineStateType, config: LangGraphRunnableConfig) {
  const ctx = ctxOf(config);
  return ctx.node('answer_at_bound', async () => {
    const { output } = await ctx.model.call({ prompt: ragAnswerPrompt, vars: { question: state.question, passages: state.passages } });
    return { finalAnswer: output.answer, reasoning: output.reasoning, stopReason: 'step-budget' };
  });
}
