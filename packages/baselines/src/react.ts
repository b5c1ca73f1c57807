import { END, START } from '@langchain/langgraph';
import { withDefaults, type Workflow } from '@multihop/core';
import { defineGraphWorkflow, workflowGraph } from '@multihop/engine-langgraph';
import { formatPassages } from '@multihop/prompts';
import { reactStepPrompt } from './prompts';
import { BASELINES } from './variants';
import { BASELINE_SETTINGS, REACT_DEFAULTS } from './settings';
import { answerAtBound, BaselineState, baselineInput, baselineOutput, gather, madeProgress, progressingSearch, type BaselineStateType } from './state';

export interface ReactOptions {
  /** Passages per search (default 3). */
  k?: number;
  /** Thought/action steps before the loop is cut (default 6). */
  maxSteps?: number;
}

/**
 * ReAct (Yao et al., 2023): alternate a thought with an action, search[query] (its
 * observation is the retrieved passages) or finish[answer]. At the step bound the observed
 * passages are answered once (`answer_at_bound`) and the run is labelled `step-budget`. The loop
 * also ends there, labelled `no-progress`, when a search repeats an earlier search's query (it is
 * not searched again) or observes only passages observed before.
 */
export function react(options: ReactOptions = {}): Workflow {
  const { k, maxSteps } = withDefaults(REACT_DEFAULTS, options, { workflow: 'react', schema: BASELINE_SETTINGS.react });
  /** Router after `think`: the action the thought chose, unless the step bound cuts the loop. */
  const chosenAction = (state: BaselineStateType): 'finish' | 'search' | 'step-bound' => {
    if (state.finalAnswer !== null) return 'finish';
    return state.steps.length >= maxSteps ? 'step-bound' : 'search';
  };
  const graph = workflowGraph(BaselineState)
    .node('think', async (state, { ctx }) => {
      const { output } = await ctx.model.call({ prompt: reactStepPrompt, vars: { question: state.question, steps: state.steps } });
      ctx.decide(output.action, { step: state.steps.length + 1, input: output.input, thought: output.thought });
      const steps = [...state.steps, { thought: output.thought, action: output.action, input: output.input }];
      return { steps, ...(output.action === 'finish' ? { finalAnswer: output.input } : { query: output.input }) };
    })
    .node(
      'search',
      async (state, { ctx }) => {
        // Compared with the earlier search actions and everything they observed (the first search has nothing to compare with).
        const earlier = state.steps.slice(0, -1).filter((s) => s.action === 'search');
        const { hits, noProgress } = await progressingSearch(ctx, {
          query: state.query,
          k,
          earlierQueries: earlier.map((s) => s.input),
          seen: earlier.length ? state.passages : null,
          step: state.steps.length,
        });
        const steps = state.steps.map((s, i) => (i === state.steps.length - 1 ? { ...s, observation: formatPassages(hits) } : s));
        return { steps, passages: gather(state.passages, hits), ...(noProgress ? { noProgress } : {}) };
      },
      { enter: (state) => ({ query: state.query }) },
    )
    .node('answer_at_bound', answerAtBound)
    .edge(START, 'think')
    .route('think', chosenAction, { finish: END, search: 'search', 'step-bound': 'answer_at_bound' })
    .route('search', madeProgress, { progress: 'think', 'no-progress': 'answer_at_bound' })
    .edge('answer_at_bound', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.react, graph, input: baselineInput, output: baselineOutput, recursionLimit: 3 * maxSteps + 10 });
}
