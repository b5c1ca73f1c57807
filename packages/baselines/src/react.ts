import { END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Workflow } from '@multihop/core';
import { formatPassages } from '@multihop/prompts';
import { reactStepPrompt } from './prompts';
import { graphWorkflow } from './graphWorkflow';
import { BASELINES } from './variants';
import { answerAtBound, BaselineState, ctxOf, gather, type BaselineStateType } from './state';

export interface ReactOptions {
  /** Passages per search (default 3). */
  k?: number;
  /** Thought/action steps before the loop is cut (default 6). */
  maxSteps?: number;
}

/**
 * ReAct (Yao et al., 2023): alternate a thought with an action, search[query] (its
 * observation is the retrieved passages) or finish[answer]. At the step bound the observed
 * passages are answered once (`answer_at_bound`) and the run is labelled `step-budget`.
 */
export function react(options: ReactOptions = {}): Workflow {
  const k = options.k ?? 3;
  const maxSteps = options.maxSteps ?? 6;
  const graph = new StateGraph(BaselineState)
    .addNode('think', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('think', async () => {
        const { output } = await ctx.model.call({ prompt: reactStepPrompt, vars: { question: state.question, steps: state.steps } });
        ctx.decide(output.action, { step: state.steps.length + 1, input: output.input, thought: output.thought });
        const steps = [...state.steps, { thought: output.thought, action: output.action, input: output.input }];
        return { steps, ...(output.action === 'finish' ? { finalAnswer: output.input } : { query: output.input }) };
      });
    })
    .addNode('search', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('search', async () => {
        ctx.budget.chargeHop();
        const hits = await ctx.retriever.search(state.query, { k });
        ctx.addEvidence(hits, { query: state.query, hop: state.steps.length });
        const steps = state.steps.map((s, i) => (i === state.steps.length - 1 ? { ...s, observation: formatPassages(hits) } : s));
        return { steps, passages: gather(state.passages, hits) };
      }, { query: state.query });
    })
    .addNode('answer_at_bound', answerAtBound)
    .addEdge(START, 'think')
    .addConditionalEdges('think', (state: BaselineStateType) => nextAfterThought(state, maxSteps), { finish: END, search: 'search', 'step-bound': 'answer_at_bound' })
    .addEdge('search', 'think')
    .addEdge('answer_at_bound', END)
    .compile();
  return graphWorkflow({
    ...BASELINES.react,
    graph,
    chart: { routers: { think: 'chosenAction' }, choices: ['think'] },
    recursionLimit: 3 * maxSteps + 10,
  });
}

function nextAfterThought(state: BaselineStateType, maxSteps: number): 'finish' | 'search' | 'step-bound' {
  if (state.finalAnswer !== null) return 'finish';
  return state.steps.length >= maxSteps ? 'step-bound' : 'search';
}
