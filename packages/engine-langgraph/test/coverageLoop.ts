import { Annotation, END, Send, START } from '@langchain/langgraph';
import { createModel, createScriptedProvider, type ModelPort, type SearchHit } from '@multihop/core';
import { append, defineGraphWorkflow, last, workflowGraph, type GraphRuntime } from '../src';

/**
 * A small PAR²-shaped method for the engine's tests: split the question into sub-queries, search
 * each in a parallel branch (Send), merge, then loop follow-up searches until the context covers
 * `titlesWanted` distinct titles or `maxHops` is spent. No model: every branch is decided by
 * what the real retrieval returns, so runs on different questions take different paths.
 */
export const CoverageState = Annotation.Root({
  question: Annotation<string>(),
  subQueries: last<string[]>(() => []),
  branch: last<{ index: number; query: string } | null>(() => null),
  found: append<{ index: number; hits: SearchHit[] }>(),
  context: last<SearchHit[]>(() => []),
  hop: last<number>(() => 0),
});
type State = typeof CoverageState.State;

export interface CoverageSettings {
  parts: number;
  k: number;
  titlesWanted: number;
  maxHops: number;
}

export interface CoverageExtras {
  /** Counts the runtimes built, to show one is built per run. */
  runNumber: number;
}

const distinctTitles = (hits: SearchHit[]) => new Set(hits.map((h) => h.title)).size;

export function coverageGraph(settings: CoverageSettings) {
  function oneBranchPerSubQuery(state: State): Send[] {
    return state.subQueries.map((query, index) => new Send('search', { question: state.question, branch: { index, query } }));
  }
  function coverageReached(state: State): 'CONTINUE' | 'STOP' {
    return distinctTitles(state.context) >= settings.titlesWanted || state.hop >= settings.maxHops ? 'STOP' : 'CONTINUE';
  }
  return workflowGraph(CoverageState)
    .withRuntime<CoverageExtras>()
    .node('plan', (state) => {
      const words = state.question.split(/\s+/);
      const size = Math.ceil(words.length / settings.parts);
      return { subQueries: Array.from({ length: settings.parts }, (_, i) => words.slice(i * size, (i + 1) * size).join(' ')).filter(Boolean) };
    })
    .node(
      'search',
      async (state, { ctx }) => {
        const branch = state.branch!;
        return { found: [{ index: branch.index, hits: await ctx.retriever.search(branch.query, { k: settings.k }) }] };
      },
      { enter: (state) => ({ branch: state.branch?.index }) },
    )
    .node('merge', (state, { ctx, runNumber }) => {
      const seen = new Set<string>();
      const context = [...state.found]
        .sort((a, b) => a.index - b.index)
        .flatMap((f) => f.hits)
        .filter((h) => !seen.has(h.id) && seen.add(h.id));
      ctx.addEvidence(context, { query: 'merge', hop: 0 });
      ctx.decide('merged', { passages: context.length, runNumber });
      return { context, hop: 1 };
    })
    .node('check', (state, { ctx }) => {
      ctx.decide(coverageReached(state), { titles: distinctTitles(state.context), hop: state.hop });
      return {};
    }, { label: 'enough?' })
    .node('follow_up', async (state, { ctx }) => {
      const known = new Set(state.context.map((h) => h.id));
      const hits = await ctx.retriever.search(`${state.question} ${state.hop}`, { k: settings.k + state.hop });
      ctx.addEvidence(hits, { query: state.question, hop: state.hop });
      return { context: [...state.context, ...hits.filter((h) => !known.has(h.id))], hop: state.hop + 1 };
    })
    .edge(START, 'plan')
    .fanOut('plan', oneBranchPerSubQuery, ['search'])
    .edge('search', 'merge')
    .edge('merge', 'check')
    .route('check', coverageReached, { CONTINUE: 'follow_up', STOP: END })
    .edge('follow_up', 'check')
    .compile();
}

export function coverageWorkflow(settings: CoverageSettings) {
  let runs = 0;
  return defineGraphWorkflow({
    id: 'coverage-loop',
    title: 'Coverage loop (engine test method)',
    paper: 'none: a test fixture',
    graph: coverageGraph(settings),
    recursionLimit: 4 + 2 * (settings.maxHops + 1),
    runtime: () => ({ runNumber: ++runs }),
    input: (query) => ({ question: query.text }),
    output: (state, ctx) => ({
      answer: state.context[0]?.title ?? '',
      data: { hops: state.hop, titles: distinctTitles(state.context), query: ctx.query.id },
    }),
  });
}

/** The method calls no model; runs still need a model port. */
export const noModel = (): ModelPort => createModel({ provider: createScriptedProvider({ replies: {} }) });

export type CoverageRuntime = GraphRuntime<CoverageExtras>;
