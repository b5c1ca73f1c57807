import { END, START } from '@langchain/langgraph';
import { checkOptionNames, withDefaults, type Workflow } from '@multihop/core';
import { defineGraphWorkflow, workflowGraph } from '@multihop/engine-langgraph';
import { chainOfThoughtPrompt, directPrompt, ragAnswerPrompt } from './prompts';
import { BASELINES } from './variants';
import { BASELINE_SETTINGS, SINGLE_TURN_RAG_DEFAULTS } from './settings';
import { BaselineState, baselineInput, baselineOutput } from './state';

/** Direct inference and chain-of-thought take no options: one given (from JavaScript, or a JSON file) is refused by name. */
export type NoOptions = Record<string, never>;

/** Direct inference: the model answers from its own knowledge, one call, no retrieval. */
export function directInference(options: NoOptions = {}): Workflow {
  checkOptionNames(BASELINES.direct.id, options, []);
  const graph = workflowGraph(BaselineState)
    .node('answer', async (state, { ctx }) => {
      const { output } = await ctx.model.call({ prompt: directPrompt, vars: { question: state.question } });
      return { finalAnswer: output.answer };
    })
    .edge(START, 'answer')
    .edge('answer', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.direct, graph, input: baselineInput, output: baselineOutput });
}

/** Chain-of-thought: reason step by step from own knowledge, then answer; no retrieval. */
export function chainOfThought(options: NoOptions = {}): Workflow {
  checkOptionNames(BASELINES.cot.id, options, []);
  const graph = workflowGraph(BaselineState)
    .node('reason', async (state, { ctx }) => {
      const { output } = await ctx.model.call({ prompt: chainOfThoughtPrompt, vars: { question: state.question } });
      return { finalAnswer: output.answer, reasoning: output.reasoning };
    })
    .edge(START, 'reason')
    .edge('reason', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.cot, graph, input: baselineInput, output: baselineOutput });
}

export interface SingleTurnRagOptions {
  /** Passages retrieved for the question (default 5). */
  k?: number;
}

/** Single-turn RAG: retrieve top-k for the question once, answer from them. */
export function singleTurnRag(options: SingleTurnRagOptions = {}): Workflow {
  const { k } = withDefaults(SINGLE_TURN_RAG_DEFAULTS, options, { workflow: 'single-turn-rag', schema: BASELINE_SETTINGS.rag });
  const graph = workflowGraph(BaselineState)
    .node('retrieve', async (state, { ctx }) => {
      // Its one retrieval round is a hop of the run's budget (core's maxHops), as every method's round is.
      ctx.budget.chargeHop();
      const hits = await ctx.retriever.search(state.question, { k });
      ctx.addEvidence(hits, { query: state.question, hop: 0 });
      return { passages: hits };
    })
    .node('answer', async (state, { ctx }) => {
      const { output } = await ctx.model.call({ prompt: ragAnswerPrompt, vars: { question: state.question, passages: state.passages } });
      return { finalAnswer: output.answer, reasoning: output.reasoning };
    })
    .edge(START, 'retrieve')
    .edge('retrieve', 'answer')
    .edge('answer', END)
    .compile();
  return defineGraphWorkflow({ ...BASELINES.rag, graph, input: baselineInput, output: baselineOutput });
}
