import { END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Workflow } from '@multihop/core';
import { ircotStepPrompt } from './prompts';
import { graphWorkflow } from './graphWorkflow';
import { BASELINES } from './variants';
import { answerAtBound, BaselineState, ctxOf, gather, type BaselineStateType } from './state';

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
 * (`answer_at_bound`) and the run is labelled `step-budget`.
 */
export function ircot(options: IrcotOptions = {}): Workflow {
  const k = options.k ?? 5;
  const maxSteps = options.maxSteps ?? 5;
  const graph = new StateGraph(BaselineState)
    .addNode('retrieve', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('retrieve', async () => {
        ctx.budget.chargeHop();
        const hits = await ctx.retriever.search(state.query, { k });
        ctx.addEvidence(hits, { query: state.query, hop: state.thoughts.length });
        return { passages: gather(state.passages, hits) };
      }, { query: state.query });
    })
    .addNode('reason', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('reason', async () => {
        const { output } = await ctx.model.call({
          prompt: ircotStepPrompt,
          vars: { question: state.question, passages: state.passages, thoughts: state.thoughts },
        });
        const thoughts = [...state.thoughts, output.thought];
        const answered = output.answer !== null && output.answer.trim() !== '';
        ctx.decide(answered ? 'answered' : thoughts.length >= maxSteps ? 'step-bound' : 'continue', { step: thoughts.length, thought: output.thought });
        return { thoughts, query: output.thought, ...(answered ? { finalAnswer: output.answer } : {}) };
      });
    })
    .addNode('answer_at_bound', answerAtBound)
    .addEdge(START, 'retrieve')
    .addEdge('retrieve', 'reason')
    .addConditionalEdges('reason', (state: BaselineStateType) => nextAfterReason(state, maxSteps), { answered: END, continue: 'retrieve', 'step-bound': 'answer_at_bound' })
    .addEdge('answer_at_bound', END)
    .compile();
  return graphWorkflow({
    ...BASELINES.ircot,
    graph,
    chart: { routers: { reason: 'answerStated' }, choices: ['reason'] },
    recursionLimit: 4 * maxSteps + 10,
  });
}

function nextAfterReason(state: BaselineStateType, maxSteps: number): 'answered' | 'continue' | 'step-bound' {
  if (state.finalAnswer !== null) return 'answered';
  return state.thoughts.length >= maxSteps ? 'step-bound' : 'continue';
}
