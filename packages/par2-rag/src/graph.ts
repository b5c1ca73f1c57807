import { Annotation, END, Send, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { MultihopError, type RunContext, type SearchHit } from '@multihop/core';
import type { Reranker } from '@multihop/core';
import { evidenceSufficiency, type EscVerdict } from './agents/EvidenceSufficiencyController';
import { planSubQueries, type SubQuery } from './agents/Planner';
import { formulateQuery } from './agents/QueryFormulator';
import { mergeRoundRobin, retrieveAndRerank } from './agents/RetrieverReranker';
import { writeResponse } from './agents/Writer';

/** Which parts of PAR²-RAG run: both stages, or one of the paper's two module variants (§4.1). */
export type Par2Variant = 'full' | 'coverage-anchor' | 'iterative-chain';

export interface Par2Settings {
  /** m: sub-queries the planner emits (paper: 5). */
  subQueries: number;
  /** Candidates per retrieval before reranking (paper: OpenSearch top-100). */
  retrieveK: number;
  /** Passages kept per retrieval after reranking (paper: 5). */
  rerankK: number;
  /** H: hops of the iterative chain (paper: step budget 5). */
  hopBudget: number;
}

export interface HopRecord {
  hop: number;
  answer: string;
  decision?: 'CONTINUE' | 'STOP';
  rationale?: string;
  query?: string;
  contextSize: number;
}

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });
const append = <T>() => Annotation<T[]>({ reducer: (a, b) => a.concat(b), default: () => [] });

export const Par2State = Annotation.Root({
  question: Annotation<string>(),
  subQueries: last<SubQuery[]>(() => []),
  /** The sub-query one parallel `retrieve` branch serves (its Send payload). */
  branch: last<{ index: number; query: string } | undefined>(() => undefined),
  candidates: append<{ index: number; query: string; hits: SearchHit[] }>(),
  reranked: last<SearchHit[][]>(() => []),
  /** C_t: the anchored context, grown by each chain retrieval. */
  context: last<SearchHit[]>(() => []),
  /** t: the current hop of the iterative chain. */
  hop: last<number>(() => 0),
  response: last<{ answer: string; reasoning: string } | undefined>(() => undefined),
  verdict: last<EscVerdict | undefined>(() => undefined),
  /** q*_{t+1}: the next chain query (the raw question for the iterative-chain variant's first hop). */
  nextQuery: last<string>(() => ''),
  queries: append<string>(),
  hops: append<HopRecord>(),
  /** The ESC still said CONTINUE when the hop budget H ran out. */
  exhausted: last<boolean>(() => false),
});

export type Par2StateType = typeof Par2State.State;

/** What every node needs at run time; passed per run through `configurable`. */
export interface Par2Runtime {
  ctx: RunContext;
  reranker: Reranker;
}

function runtimeOf(config: LangGraphRunnableConfig): Par2Runtime {
  const runtime = config.configurable?.['par2'] as Par2Runtime | undefined;
  if (!runtime) throw new MultihopError('PAR2_RUNTIME', 'PAR² graph invoked without its runtime (configurable.par2)');
  return runtime;
}

/** Router after `plan`: one `retrieve` branch per sub-query, run in parallel (LangGraph Send). */
function fanOutSubQueries(state: Par2StateType): Send[] {
  return state.subQueries.map((s, index) => new Send('retrieve', { question: state.question, branch: { index, query: s.query } }));
}

/** Router after `esc`: CONTINUE with hops left → reformulate; STOP, or the budget spent → final. */
function escDecision(state: Par2StateType): 'CONTINUE' | 'STOP' {
  return state.verdict?.decision === 'CONTINUE' && !state.exhausted ? 'CONTINUE' : 'STOP';
}

export const PAR2_ROUTERS = { plan: 'fanOutSubQueries', esc: 'escDecision' } as const;

/**
 * Builds the PAR²-RAG graph (Algorithm 1) for one variant. Node names are the chart's:
 *   plan → retrieve ×m (parallel) → rerank_dedupe → anchor          (Stage 1, Coverage Anchor)
 *   generate → esc —CONTINUE→ reformulate → chain_retrieve → generate (Stage 2, Iterative Chain)
 *              esc —STOP / budget→ final
 */
export function buildPar2Graph(variant: Par2Variant, settings: Par2Settings) {
  const nodes = {
    plan: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('plan', async () => {
        const subQueries = await planSubQueries(ctx, state.question, settings.subQueries);
        ctx.decide('sub-queries', { count: subQueries.length, queries: subQueries.map((s) => s.query) });
        return { subQueries, queries: subQueries.map((s) => s.query) };
      });
    },
    retrieve: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      const branch = state.branch;
      if (!branch) throw new MultihopError('PAR2_BRANCH', 'retrieve ran without a sub-query');
      return ctx.node(
        'retrieve',
        async () => ({ candidates: [{ ...branch, hits: await ctx.retriever.search(branch.query, { k: settings.retrieveK }) }] }),
        { branch: branch.index, query: branch.query },
      );
    },
    rerank_dedupe: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx, reranker } = runtimeOf(config);
      return ctx.node('rerank_dedupe', async () => {
        const lists = [...state.candidates].sort((a, b) => a.index - b.index);
        const reranked = await Promise.all(lists.map((c) => reranker.rerank(c.query, c.hits, { k: settings.rerankK, signal: ctx.signal })));
        ctx.decide('rerank', { reranker: reranker.id, kept: reranked.map((r) => r.map((h) => h.id)) });
        return { reranked };
      });
    },
    anchor: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('anchor', async () => {
        const anchor = mergeRoundRobin(state.reranked);
        ctx.addEvidence(anchor, { query: 'coverage-anchor', hop: 0 });
        ctx.decide('anchored', { passages: anchor.length });
        return { context: anchor, hop: 1 };
      });
    },
    chain_retrieve: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx, reranker } = runtimeOf(config);
      return ctx.node('chain_retrieve', async () => {
        // A caller's Budget.maxHops caps the chain's retrievals, beside the method's own H.
        ctx.budget.chargeHop();
        const hop = state.hop + 1;
        const hits = await retrieveAndRerank(ctx, reranker, state.nextQuery, settings);
        ctx.addEvidence(hits, { query: state.nextQuery, hop });
        const known = new Set(state.context.map((h) => h.id));
        return { context: [...state.context, ...hits.filter((h) => !known.has(h.id))], hop };
      }, { query: state.nextQuery });
    },
    generate: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('generate', async () => {
        const response = await writeResponse(ctx, state.question, state.context);
        ctx.draft(response.answer);
        return { response };
      }, { hop: state.hop });
    },
    esc: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('esc', async () => {
        const answer = state.response?.answer ?? '';
        const verdict = await evidenceSufficiency(ctx, state.question, answer, state.context);
        const exhausted = verdict.decision === 'CONTINUE' && state.hop >= settings.hopBudget;
        ctx.decide(verdict.decision, { hop: state.hop, query: verdict.query, rationale: verdict.rationale, ...(exhausted ? { hopBudgetExhausted: true } : {}) });
        const record: HopRecord = { hop: state.hop, answer, decision: verdict.decision, rationale: verdict.rationale, contextSize: state.context.length };
        return { verdict, exhausted, hops: [record] };
      }, { hop: state.hop });
    },
    reformulate: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('reformulate', async () => {
        const query = await formulateQuery(ctx, {
          question: state.question,
          response: state.response?.answer ?? '',
          rationale: state.verdict?.rationale ?? '',
          suggestion: state.verdict?.query ?? '',
          previousQueries: state.queries,
        });
        return { nextQuery: query, queries: [query] };
      });
    },
    final: async (state: Par2StateType, config: LangGraphRunnableConfig) => {
      const { ctx } = runtimeOf(config);
      return ctx.node('final', async () => {
        ctx.decide('answer', { answer: state.response?.answer ?? '', hop: state.hop, ...(state.exhausted ? { hopBudgetExhausted: true } : {}) });
        return {};
      });
    },
  };

  const stage1 = ['plan', 'retrieve', 'rerank_dedupe', 'anchor'] as const;
  const stage2 = ['chain_retrieve', 'esc', 'reformulate'] as const;
  const used: Array<keyof typeof nodes> = [
    ...(variant === 'iterative-chain' ? [] : stage1),
    'generate',
    ...(variant === 'coverage-anchor' ? [] : stage2),
    'final',
  ];
  // Only the variant's own nodes are added: the chart then shows exactly what runs.
  const graph = new StateGraph(Par2State);
  for (const name of used) graph.addNode(name, nodes[name]);
  // LangGraph types node names as they are added; the loop above hides them from the compiler.
  const g = graph as unknown as StateGraph<typeof Par2State.spec, Par2StateType, Partial<Par2StateType>, string>;
  if (variant === 'iterative-chain') {
    g.addEdge(START, 'chain_retrieve');
  } else {
    g
      .addEdge(START, 'plan')
      .addConditionalEdges('plan', fanOutSubQueries, ['retrieve'])
      .addEdge('retrieve', 'rerank_dedupe')
      .addEdge('rerank_dedupe', 'anchor')
      .addEdge('anchor', 'generate');
  }
  if (variant === 'coverage-anchor') {
    g.addEdge('generate', 'final');
  } else {
    g
      .addEdge('chain_retrieve', 'generate')
      .addEdge('generate', 'esc')
      .addConditionalEdges('esc', escDecision, { CONTINUE: 'reformulate', STOP: 'final' })
      .addEdge('reformulate', 'chain_retrieve');
  }
  g.addEdge('final', END);
  return g.compile();
}
