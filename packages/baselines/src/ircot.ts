import { END, START } from '@langchain/langgraph';
import { withDefaults, type Workflow } from '@multihop/core';
import { defineGraphWorkflow, workflowGraph } from '@multihop/engine-langgraph';
import { ircotStepPrompt } from './prompts';
import { BASELINES } from './variants';
import { BASELINE_SETTINGS, IRCOT_DEFAULTS } from './settings';
import { answerAtBound, BaselineState, baselineInput, baselineOutput, gather, madeProgress, progressingSearch, type BaselineStateType } from './state';

export interface IrcotOptions {
  /** Passages per retrieval (default 5). */
  k?: number;
  /** Reasoning sentences before the loop is cut (default 5). */
  maxSteps?: number;
}

/**
 * IRCoT (Trivedi et al., 2023): retrieve for the question; then repeatedly extend the chain of
 * thought by one sentence and retrieve with that sentence, until a sentence states the answer
 * or the step bound is reached. At the bound, the gathered passages are answered once
 * (`answer_at_bound`) and the run is labelled `step-budget`. The chain also ends there, labelled
 * `no-progress`, when a sentence repeats an earlier query (the question or an earlier sentence;
 * it is not searched) or its retrieval brings no passage the chain had not gathered.
 */
export function ircot(options: IrcotOptions = {}): Workflow {
  const { k, maxSteps } = withDefaults(IRCOT_DEFAULTS, options, { workflow: 'ircot', schema: BASELINE_SETTINGS.ircot });
  /** Router after `reason`: the sentence stated the answer, or the chain goes on until the bound. */
  const answerStated = (state: BaselineStateType): 'answered' | 'continue' | 'step-bound' => {
    if (state.finalAnswer !== null) return 'answered';
    return state.thoughts.length >= maxSteps ? 'step-bound' : 'continue';
  };
  const graph = workflowGraph(BaselineState)
    .node(
      'retrieve',
      async (state, { ctx }) => {
        // The retrieval for the question starts the chain; each sentence's must be a new query that brings a new passage.
        const looping = state.thoughts.length > 0;
        const { hits, noProgress } = await progressingSearch(ctx, {
          query: state.query,
          k,
          earlierQueries: looping ? [state.question, ...state.thoughts.slice(0, -1)] : [],
          seen: looping ? state.passages : null,
          step: state.thoughts.length,
        });
        return { passages: gather(state.passages, hits), ...(noProgress ? { noProgress } : {}) };
      },
      { enter: (state) => ({ query: state.query }) },
    )
    .node('reason', async (state, { ctx }) => {
      const { output } = await ctx.model.call({
        prompt: ircotStepPrompt,
        vars: { question: state.question, passages: state.passages, thoughts: state.thoughts },
      });
      const thoughts = [...state.thoughts, output.thought];
      const answered = output.answer !== null && output.answer.trim() !== '';
      ctx.decide(answered ? 'answered' : thoughts.length >= maxSteps ? 'step-bound' : 'continue', { step: thoughts.length, thought: output.thought });
      return { thoughts, query: output.thought, ...(answered ? { finalAnswer: output.answer } : {}) };
    })
    .node('answer_at_bound', answerAtBound)
    .edge(START, 'retrieve')
    .route('retrieve', madeProgress, { progress: 'reason', 'no-progress': 'answer_at_bound' })
    .route('reason', answerStated, { answered: END, continue: 'retrieve', 'step-bound': 'answer_at_bound' })
    .edge('answer_at_bound', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.ircot, graph, input: baselineInput, output: baselineOutput, recursionLimit: 4 * maxSteps + 10 });
}
