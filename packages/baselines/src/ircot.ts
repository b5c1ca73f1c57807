import { END, START } from '@langchain/langgraph';
import type { Workflow } from '@multihop/core';
import { defineGraphWorkflow, workflowGraph } from '@multihop/engine-langgraph';
import { ircotStepPrompt } from './prompts';
import { BASELINES } from './variants';
import { answerAtBound, BaselineState, baselineInput, baselineOutput, gather, type BaselineStateType } from './state';

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
  /** Router after `reason`: the sentence stated the answer, or the chain goes on until the bound. */
  const answerStated = (state: BaselineStateType): 'answered' | 'continue' | 'step-bound' => {
    if (state.finalAnswer !== null) return 'answered';
    return state.thoughts.length >= maxSteps ? 'step-bound' : 'continue';
  };
  const graph = workflowGraph(BaselineState)
    .node(
      'retrieve',
      async (state, { ctx }) => {
        ctx.budget.chargeHop();
        const hits = await ctx.retriever.search(state.query, { k });
        ctx.addEvidence(hits, { query: state.query, hop: state.thoughts.length });
        return { passages: gather(state.passages, hits) };
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
    .edge('retrieve', 'reason')
    .route('reason', answerStated, { answered: END, continue: 'retrieve', 'step-bound': 'answer_at_bound' })
    .edge('answer_at_bound', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.ircot, graph, input: baselineInput, output: baselineOutput, recursionLimit: 4 * maxSteps + 10 });
}
