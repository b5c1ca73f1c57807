import { Annotation, Overwrite, Send, START, END } from '@langchain/langgraph';
import { loopProgress, MultihopError, NO_PROGRESS, type NoProgressKind, type Reranker, type SearchHit } from '@multihop/core';
import { append, last, workflowGraph, type GraphRuntime } from '@multihop/engine-langgraph';
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
  /**
   * Who reranks each retrieval's candidates when the caller gives no `Reranker`: `lexical`
   * (@multihop/lexical's LexicalReranker, no model call) or `llm` (the run's model, listwise, with
   * the shared `retriever.rerank` prompt, as appendix A.4's reranker is a language model).
   */
  rerankWith: 'lexical' | 'llm';
}

export interface HopRecord {
  hop: number;
  answer: string;
  decision?: 'CONTINUE' | 'STOP';
  rationale?: string;
  query?: string;
  contextSize: number;
}

export const Par2State = Annotation.Root({
  question: Annotation<string>(),
  subQueries: last<SubQuery[]>(() => []),
  /** The sub-query one parallel `retrieve` branch serves (its Send payload). */
  branch: last<{ index: number; query: string } | null>(() => null),
  /**
   * Each parallel branch's retrieveK hits (full passages: ~240 KB for five sub-queries), emptied
   * once reranked: a checkpoint stores every channel at every step, so keeping them would write
   * them again at each later step of a durable run.
   */
  candidates: append<{ index: number; query: string; hits: SearchHit[] }>(),
  reranked: last<SearchHit[][]>(() => []),
  /** C_t: the anchored context, grown by each chain retrieval. */
  context: last<SearchHit[]>(() => []),
  /** t: the current hop of the iterative chain. */
  hop: last<number>(() => 0),
  response: last<{ answer: string; reasoning: string } | null>(() => null),
  verdict: last<EscVerdict | null>(() => null),
  /** q*_{t+1}: the next chain query (the raw question for the iterative-chain variant's first hop). */
  nextQuery: last<string>(() => ''),
  queries: append<string>(),
  hops: append<HopRecord>(),
  /** The ESC still said CONTINUE when the hop budget H ran out. */
  exhausted: last<boolean>(() => false),
  /** Set when the chain stopped for want of progress: its next query repeated one, or its retrieval added no passage. */
  noProgress: last<NoProgressStop | null>(() => null),
});

/** Why the iterative chain stopped before the ESC said STOP or H ran out (core's `loopProgress`). */
export interface NoProgressStop {
  kind: NoProgressKind;
  query: string;
  detail: string;
  hop: number;
}

export type Par2StateType = typeof Par2State.State;

/** What PAR²'s nodes need at run time beside the run context (which every graph gets). */
export interface Par2Runtime {
  reranker: Reranker;
}

type State = Par2StateType;
type Runtime = GraphRuntime<Par2Runtime>;

/** Router after `plan`: one `retrieve` branch per sub-query, run in parallel (LangGraph Send). */
function fanOutSubQueries(state: State): Send[] {
  return state.subQueries.map((s, index) => new Send('retrieve', { question: state.question, branch: { index, query: s.query } }));
}

/** Router after `esc`: CONTINUE with hops left → reformulate; STOP, or the budget spent → final. */
function escDecision(state: State): 'CONTINUE' | 'STOP' {
  return state.verdict?.decision === 'CONTINUE' && !state.exhausted ? 'CONTINUE' : 'STOP';
}

/** Router after `reformulate`: a query that repeats an earlier one (a sub-query or a chain query) ends the chain. */
function queryProgress(state: State): 'progress' | 'repeated-query' {
  return state.noProgress?.kind === 'repeated-query' ? 'repeated-query' : 'progress';
}

/** Router after `chain_retrieve`: a retrieval that added no passage to C_t ends the chain (r_t would not change). */
function retrievalProgress(state: State): 'progress' | 'no-new-passage' {
  return state.noProgress?.kind === 'no-new-passage' ? 'no-new-passage' : 'progress';
}

/**
 * Builds the PAR²-RAG graph (Algorithm 1) for one variant. Node names are the chart's:
 *   plan → retrieve ×m (parallel) → rerank_dedupe → anchor          (Stage 1, Coverage Anchor)
 *   generate → esc —CONTINUE→ reformulate → chain_retrieve → generate (Stage 2, Iterative Chain)
 *              esc —STOP / budget→ final
 *              reformulate —repeated-query→ final; chain_retrieve —no-new-passage→ final (no progress)
 * Only the variant's own nodes are added, so the chart shows exactly what runs.
 */
export function buildPar2Graph(variant: Par2Variant, settings: Par2Settings) {
  // Stage 1: 𝒫(q) → m sub-queries; ℛ for each in parallel; rerank each list; merge into C_1.
  const plan = async (state: State, { ctx }: Runtime) => {
    // The breadth-first round the plan feeds is one hop of a caller's Budget.maxHops (each chain step another).
    ctx.budget.chargeHop();
    const subQueries = await planSubQueries(ctx, state.question, settings.subQueries);
    ctx.decide('sub-queries', { count: subQueries.length, queries: subQueries.map((s) => s.query) });
    return { subQueries, queries: subQueries.map((s) => s.query) };
  };
  const retrieve = async (state: State, { ctx }: Runtime) => {
    const branch = state.branch;
    if (!branch) throw new MultihopError('PAR2_BRANCH', 'retrieve ran without a sub-query');
    return { candidates: [{ ...branch, hits: await ctx.retriever.search(branch.query, { k: settings.retrieveK }) }] };
  };
  const rerankDedupe = async (state: State, { ctx, reranker }: Runtime) => {
    const lists = [...state.candidates].sort((a, b) => a.index - b.index);
    const reranked = await Promise.all(lists.map((c) => reranker.rerank(c.query, c.hits, { k: settings.rerankK, signal: ctx.signal })));
    ctx.decide('rerank', { reranker: reranker.id, kept: reranked.map((r) => r.map((h) => h.id)) });
    return { reranked, candidates: new Overwrite<Array<{ index: number; query: string; hits: SearchHit[] }>>([]) };
  };
  const anchor = async (state: State, { ctx }: Runtime) => {
    const anchored = mergeRoundRobin(state.reranked);
    ctx.addEvidence(anchored, { query: 'coverage-anchor', hop: 0 });
    ctx.decide('anchored', { passages: anchored.length });
    // The per-query lists are merged into C_1: not kept for the later steps' checkpoints.
    return { context: anchored, hop: 1, reranked: [] };
  };

  // Stage 2, for t = 1..H: r_t = 𝒢(q, C_t); ℰ decides; on CONTINUE 𝒬 writes q*_{t+1}, ℛ grows C_{t+1}.
  const generate = async (state: State, { ctx }: Runtime) => {
    const response = await writeResponse(ctx, state.question, state.context);
    ctx.draft(response.answer);
    return { response };
  };
  const esc = async (state: State, { ctx }: Runtime) => {
    const answer = state.response?.answer ?? '';
    const verdict = await evidenceSufficiency(ctx, state.question, answer, state.context, state.queries, state.response?.reasoning ?? '');
    const exhausted = verdict.decision === 'CONTINUE' && state.hop >= settings.hopBudget;
    ctx.decide(verdict.decision, { hop: state.hop, query: verdict.query, rationale: verdict.rationale, ...(exhausted ? { hopBudgetExhausted: true } : {}) });
    const record: HopRecord = { hop: state.hop, answer, decision: verdict.decision, rationale: verdict.rationale, contextSize: state.context.length };
    return { verdict, exhausted, hops: [record] };
  };
  const reformulate = async (state: State, { ctx }: Runtime) => {
    const query = await formulateQuery(ctx, {
      question: state.question,
      response: state.response?.answer ?? '',
      reasoning: state.response?.reasoning ?? '',
      rationale: state.verdict?.rationale ?? '',
      suggestion: state.verdict?.query ?? '',
      previousQueries: state.queries,
    });
    // A query already searched (a Stage 1 sub-query or an earlier chain query) would retrieve what C_t holds.
    const progress = loopProgress({ query, earlierQueries: state.queries });
    if (!progress.progress) {
      ctx.decide(NO_PROGRESS, { kind: progress.kind, query, detail: progress.detail, hop: state.hop });
      return { nextQuery: query, queries: [query], noProgress: { kind: progress.kind, query, detail: progress.detail, hop: state.hop } };
    }
    return { nextQuery: query, queries: [query] };
  };
  const chainRetrieve = async (state: State, { ctx, reranker }: Runtime) => {
    // A caller's Budget.maxHops counts each chain step (after the breadth-first round), beside the method's own H.
    ctx.budget.chargeHop();
    const hop = state.hop + 1;
    const hits = await retrieveAndRerank(ctx, reranker, state.nextQuery, settings);
    ctx.addEvidence(hits, { query: state.nextQuery, hop });
    const known = new Set(state.context.map((h) => h.id));
    const context = [...state.context, ...hits.filter((h) => !known.has(h.id))];
    // Once there is a response, a retrieval that adds nothing to C_t leaves r_t as it is: stop with it.
    // (The iterative-chain variant's first retrieval, of the raw question, has no response yet.)
    if (state.response !== null) {
      const progress = loopProgress({ query: state.nextQuery, earlierQueries: [], retrievedIds: hits.map((h) => h.id), seenIds: known });
      if (!progress.progress) {
        ctx.decide(NO_PROGRESS, { kind: progress.kind, query: state.nextQuery, detail: progress.detail, hop: state.hop });
        return { context, noProgress: { kind: progress.kind, query: state.nextQuery, detail: progress.detail, hop: state.hop } };
      }
    }
    // The iterative-chain variant's first retrieval searched the raw question: it is a query already
    // searched, for the ESC and Query Formulator to see and for the repeated-query check.
    return { context, hop, ...(state.response === null ? { queries: [state.nextQuery] } : {}) };
  };
  const final = async (state: State, { ctx }: Runtime) => {
    ctx.decide('answer', {
      answer: state.response?.answer ?? '',
      hop: state.hop,
      ...(state.exhausted ? { hopBudgetExhausted: true } : {}),
      ...(state.noProgress ? { noProgress: state.noProgress.kind } : {}),
    });
    return {};
  };

  const graph = workflowGraph(Par2State).withRuntime<Par2Runtime>();
  if (variant !== 'iterative-chain') {
    graph
      .node('plan', plan)
      .node('retrieve', retrieve, { enter: (state) => ({ branch: state.branch?.index, query: state.branch?.query }) })
      .node('rerank_dedupe', rerankDedupe, { label: 'rerank + dedupe' })
      .node('anchor', anchor)
      .edge(START, 'plan')
      .fanOut('plan', fanOutSubQueries, ['retrieve'])
      .edge('retrieve', 'rerank_dedupe')
      .edge('rerank_dedupe', 'anchor')
      .edge('anchor', 'generate');
  }
  graph.node('generate', generate, { enter: (state) => ({ hop: state.hop }) });
  if (variant === 'coverage-anchor') {
    graph.edge('generate', 'final');
  } else {
    graph
      .node('esc', esc, { label: 'ESC', enter: (state) => ({ hop: state.hop }) })
      .node('reformulate', reformulate)
      .node('chain_retrieve', chainRetrieve, { label: 'retrieve (chain)', enter: (state) => ({ query: state.nextQuery }) })
      .edge('generate', 'esc')
      .route('esc', escDecision, { CONTINUE: 'reformulate', STOP: 'final' })
      .route('reformulate', queryProgress, { progress: 'chain_retrieve', 'repeated-query': 'final' })
      .route('chain_retrieve', retrievalProgress, { progress: 'generate', 'no-new-passage': 'final' });
    if (variant === 'iterative-chain') graph.edge(START, 'chain_retrieve');
  }
  graph.node('final', final).edge('final', END);
  return graph.compile();
}
