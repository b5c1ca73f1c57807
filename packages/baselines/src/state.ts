import { Annotation } from '@langchain/langgraph';
import { loopProgress, NO_PROGRESS, type NoProgressKind, type Query, type SearchHit, type WorkflowOutput } from '@multihop/core';
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
  /** Set when the loop stopped for want of progress: a repeated query, or a retrieval with no new passage. */
  noProgress: last<NoProgressStop | null>(() => null),
});

/** Why a baseline's loop (IRCoT, ReAct) stopped before it answered or reached its step bound. */
export interface NoProgressStop {
  kind: NoProgressKind;
  query: string;
  detail: string;
  step: number;
}

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
      ...(final.noProgress ? { noProgress: final.noProgress } : {}),
    },
  };
}

/** Adds new hits to the gathered passages, skipping ones already there. */
export function gather(passages: SearchHit[], hits: SearchHit[]): SearchHit[] {
  const known = new Set(passages.map((p) => p.id));
  return [...passages, ...hits.filter((h) => !known.has(h.id))];
}

/**
 * The node a bounded loop (IRCoT, ReAct) ends in when it reaches its step bound, or stops making
 * progress, without an answer: the passages it gathered are answered once, and the run is
 * labelled `step-budget` or `no-progress`.
 */
export async function answerAtBound(state: BaselineStateType, { ctx }: GraphRuntime) {
  const { output } = await ctx.model.call({ prompt: ragAnswerPrompt, vars: { question: state.question, passages: state.passages } });
  return { finalAnswer: output.answer, reasoning: output.reasoning, stopReason: state.noProgress ? NO_PROGRESS : 'step-budget' };
}

/**
 * Router after a loop's retrieval step (IRCoT's `retrieve`, ReAct's `search`): a step that
 * made no progress (its query repeated an earlier one, or its retrieval found no new passage;
 * the decision event says which) ends the loop in `answer_at_bound`.
 */
export function madeProgress(state: BaselineStateType): 'progress' | 'no-progress' {
  return state.noProgress ? 'no-progress' : 'progress';
}

/**
 * One retrieval step of a loop, checked with core's `loopProgress`: a query that repeats one of
 * `earlierQueries` is not searched; otherwise the hits must hold a passage not in `seen`.
 * Emits the `no-progress` decision (kind, query, detail) when the loop should stop.
 */
export async function progressingSearch(
  ctx: GraphRuntime['ctx'],
  input: { query: string; k: number; earlierQueries: readonly string[]; seen: readonly SearchHit[] | null; step: number },
): Promise<{ hits: SearchHit[]; noProgress?: NoProgressStop }> {
  const stop = (kind: NoProgressKind, detail: string) => {
    ctx.decide(NO_PROGRESS, { kind, query: input.query, detail, step: input.step });
    return { kind, query: input.query, detail, step: input.step };
  };
  const repeat = loopProgress({ query: input.query, earlierQueries: input.earlierQueries });
  if (!repeat.progress) return { hits: [], noProgress: stop(repeat.kind, repeat.detail) };
  ctx.budget.chargeHop();
  const hits = await ctx.retriever.search(input.query, { k: input.k });
  ctx.addEvidence(hits, { query: input.query, hop: input.step });
  if (input.seen === null) return { hits };
  const progress = loopProgress({ query: input.query, earlierQueries: [], retrievedIds: hits.map((h) => h.id), seenIds: input.seen.map((p) => p.id) });
  return progress.progress ? { hits } : { hits, noProgress: stop(progress.kind, progress.detail) };
}
