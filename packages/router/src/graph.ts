import { Annotation, END, START } from '@langchain/langgraph';
import { MultihopError, type Query, type SearchHit, type Workflow } from '@multihop/core';
import { last, workflowGraph, type GraphRuntime } from '@multihop/engine-langgraph';
import { rank, scale, type Prediction } from './predictor';
import type { RouterFile } from './routerFile';

/** The router's state: the question, the predictions, the choice and the chosen workflow's outcome. */
export const RouterState = Annotation.Root({
  question: Annotation<string>(),
  predictions: last<Prediction[]>(() => []),
  choice: last<string>(() => ''),
  finalAnswer: last<string>(() => ''),
  stopReason: last<string | null>(() => null),
  delegated: last<{ workflow: string; status: string; runId: string } | null>(() => null),
});

export type RouterStateType = typeof RouterState.State;

/** A candidate's chart node: its workflow id, with `:` (reserved by LangGraph) written as `.`. */
export const nodeOf = (workflow: string): string => workflow.replace(/:/g, '.');

export interface RouterGraphOptions {
  file: RouterFile;
  lambda: number;
  /** The candidates the router may choose, in the file's order. */
  candidates: readonly string[];
  /** The question's features in the file's order (its wording's, then any embedding components). */
  features: (question: string, signal?: AbortSignal) => Promise<number[]>;
  /** Builds a candidate; absent when the router is built only to draw its chart. */
  build?: (workflow: string) => Workflow;
}

/**
 * The router as a LangGraph graph: `predict` ranks the candidates by predicted quality − λ·tokens,
 * the `highestExpectedValue` router takes the edge to the best one, and that node runs the
 * candidate workflow whole on the same model, retriever, budget and trace.
 */
export function buildRouterGraph(options: RouterGraphOptions) {
  const models = options.file.candidates.filter((c) => options.candidates.includes(c.workflow));
  const graph = workflowGraph(RouterState).node('predict', async (state, { ctx }) => {
    const x = scale(options.file.scaler, await options.features(state.question, ctx.signal));
    const predictions = rank(models, x, options.lambda).map((p) => ({ ...p, quality: round(p.quality), tokens: Math.round(p.tokens), value: round(p.value) }));
    const choice = predictions[0]!.workflow;
    const embedding = options.file.embedding;
    ctx.decide('route', { choice, lambda: options.lambda, predictions, ...(embedding ? { embedding: { embedder: embedding.embedder, components: embedding.components.length } } : {}) });
    return { predictions, choice };
  });
  for (const workflow of options.candidates) {
    graph.node(nodeOf(workflow), (state, runtime) => delegate(workflow, state, runtime, options.build), { label: workflow, workflow });
    graph.edge(nodeOf(workflow), END);
  }
  const paths = Object.fromEntries(options.candidates.map((w) => [w, nodeOf(w)]));
  function highestExpectedValue(state: RouterStateType): string {
    return state.choice;
  }
  return graph.edge(START, 'predict').route('predict', highestExpectedValue, paths).compile();
}

/** Runs the chosen candidate on the router's own ports, so its calls, retrievals and budget are the router's. */
async function delegate(workflow: string, state: RouterStateType, { ctx }: GraphRuntime, build: RouterGraphOptions['build']) {
  if (!build) throw new MultihopError('ROUTER', 'this router was built to draw its chart only: build it through a WorkflowContext (the runner, the studio) to run it');
  const candidate = build(workflow);
  const query: Query = { id: ctx.query.id, text: ctx.query.text, ...(ctx.query.metadata ? { metadata: ctx.query.metadata } : {}) };
  const result = await candidate.run(query, {
    model: ctx.model,
    retriever: ctx.retriever,
    signal: ctx.signal,
    // Calls, tokens and the deadline are checked by the router's own ports; its hops (retrieval rounds) are the candidate's to count.
    ...(ctx.budget.budget.maxHops !== undefined ? { budget: { maxHops: Math.max(0, ctx.budget.budget.maxHops - ctx.budget.hops) } } : {}),
    runId: `${ctx.runId}/${workflow}`,
    // Model calls and retrievals are traced by the router's own ports (under the candidate's
    // node names); the candidate's steps, decisions and edges are forwarded, marked with its id.
    onEvent: (event) => {
      if (event.kind === 'llm' || event.kind === 'retrieve' || event.kind === 'error' || ctx.trace.isClosed) return;
      ctx.trace.emit(event.node, event.kind, { ...event.data, workflow });
    },
  });
  const byQuery = new Map<string, { hits: SearchHit[]; hop?: number }>();
  for (const e of result.evidence) {
    const group = byQuery.get(e.query) ?? { hits: [], ...(e.hop !== undefined ? { hop: e.hop } : {}) };
    group.hits.push(e);
    byQuery.set(e.query, group);
  }
  for (const [query, group] of byQuery) ctx.addEvidence(group.hits, { query, ...(group.hop !== undefined ? { hop: group.hop } : {}) });
  if (result.status === 'error') {
    throw new MultihopError(result.error?.code ?? 'ROUTER', `${workflow} failed: ${result.error?.message ?? 'no message'}`);
  }
  ctx.draft(result.answer);
  return {
    finalAnswer: result.answer,
    stopReason: result.stopReason ?? null,
    delegated: { workflow, status: result.status, runId: result.runId },
  };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
