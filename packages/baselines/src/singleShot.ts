import { END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Workflow } from '@multihop/core';
import { chainOfThoughtPrompt, directPrompt, ragAnswerPrompt } from './prompts';
import { graphWorkflow } from './graphWorkflow';
import { BASELINES } from './variants';
import { BaselineState, ctxOf, type BaselineStateType } from './state';

/** Direct inference: the model answers from its own knowledge, one call, no retrieval. */
export function directInference(): Workflow {
  const graph = new StateGraph(BaselineState)
    .addNode('answer', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('answer', async () => {
        const { output } = await ctx.model.call({ prompt: directPrompt, vars: { question: state.question } });
        return { finalAnswer: output.answer };
      });
    })
    .addEdge(START, 'answer')
    .addEdge('answer', END)
    .compile();
  return graphWorkflow({ ...BASELINES.direct, graph });
}

/** Chain-of-thought: reason step by step from own knowledge, then answer; no retrieval. */
export function chainOfThought(): Workflow {
  const graph = new StateGraph(BaselineState)
    .addNode('reason', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('reason', async () => {
        const { output } = await ctx.model.call({ prompt: chainOfThoughtPrompt, vars: { question: state.question } });
        return { finalAnswer: output.answer, reasoning: output.reasoning };
      });
    })
    .addEdge(START, 'reason')
    .addEdge('reason', END)
    .compile();
  return graphWorkflow({ ...BASELINES.cot, graph });
}

export interface SingleTurnRagOptions {
  /** Passages retrieved for the question (default 5). */
  k?: number;
}

/** Single-turn RAG: retrieve top-k for the question once, answer from them. */
export function singleTurnRag(options: SingleTurnRagOptions = {}): Workflow {
  const k = options.k ?? 5;
  const graph = new StateGraph(BaselineState)
    .addNode('retrieve', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('retrieve', async () => {
        const hits = await ctx.retriever.search(state.question, { k });
        ctx.addEvidence(hits, { query: state.question, hop: 0 });
        return { passages: hits };
      });
    })
    .addNode('answer', async (state: BaselineStateType, config: LangGraphRunnableConfig) => {
      const ctx = ctxOf(config);
      return ctx.node('answer', async () => {
        const { output } = await ctx.model.call({ prompt: ragAnswerPrompt, vars: { question: state.question, passages: state.passages } });
        return { finalAnswer: output.answer, reasoning: output.reasoning };
      });
    })
    .addEdge(START, 'retrieve')
    .addEdge('retrieve', 'answer')
    .addEdge('answer', END)
    .compile();
  return graphWorkflow({ ...BASELINES.rag, graph });
}
