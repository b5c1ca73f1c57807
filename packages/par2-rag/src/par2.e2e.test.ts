import { createModel, createScriptedProvider, toMermaid, validateChart, type Question, type RunResult } from '@multihop/core';
import { chartWalkProblems } from '@multihop/engine-langgraph';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/par2-rag/offline';
import { hotpotClosedCorpus, scopedTo } from '../test/closedCorpus';
import { par2CoverageAnchor, par2IterativeChain, par2Rag } from './workflows';

let corpus: Awaited<ReturnType<typeof hotpotClosedCorpus>>;
beforeAll(async () => {
  corpus = await hotpotClosedCorpus(12);
});
afterAll(() => corpus.close());

const plan = (queries: string[]) => JSON.stringify({ searches: queries.map((query) => ({ reason: 'needed', query })) });
const write = (answer: string) => JSON.stringify({ reasoning: 'from the passages', answer });
const esc = (decision: 'CONTINUE' | 'STOP', query = '') => JSON.stringify({ decision, query, rationale: decision === 'STOP' ? 'supported' : 'a fact is missing' });

function nodeSequence(result: RunResult): string[] {
  return result.trace.filter((e) => e.kind === 'enter').map((e) => e.node);
}

/** The chart edges a run took, in order, with the guard and branch that chose each. */
function takenEdges(result: RunResult): string[] {
  return result.trace
    .filter((e) => e.kind === 'transition')
    .map((e) => `${String(e.data['from'])}→${String(e.data['to'])}${e.data['guard'] ? ` [${String(e.data['guard'])}]` : ''}${e.data['label'] ? ` ${String(e.data['label'])}` : ''}`);
}

describe('PAR²-RAG on real HotpotQA questions and a LanceDB corpus', () => {
  let question: Question;
  beforeAll(() => {
    question = corpus.questions[0]!;
  });

  it('runs Stage 1 fan-out, then CONTINUE, then STOP, in order, with the parallel retrievals overlapping', async () => {
    const provider = createScriptedProvider({
      replies: {
        'par2-planner': [plan(['Kiss and Tell 1945 film', 'Charles Craft film editor', 'Lord High Treasurer'])],
        'par2-writer': [write('Shirley Temple'), write('Chief of Protocol')],
        'par2-esc': [esc('CONTINUE', 'Shirley Temple government position'), esc('STOP')],
        'par2-query-formulator': [JSON.stringify({ query: 'Shirley Temple Chief of Protocol' })],
      },
    });
    const result = await par2Rag().run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question, 20) });

    expect(result.status).toBe('ok');
    expect(result.answer).toBe('Chief of Protocol');
    expect(nodeSequence(result)).toEqual([
      'plan', 'retrieve', 'retrieve', 'retrieve', 'rerank_dedupe', 'anchor',
      'generate', 'esc', 'reformulate', 'chain_retrieve', 'generate', 'esc', 'final',
    ]);
    // Fan-out: every sub-query's retrieval starts before the first one ends.
    const retrieveEvents = result.trace.filter((e) => e.node === 'retrieve' && (e.kind === 'enter' || e.kind === 'exit'));
    const firstExit = retrieveEvents.findIndex((e) => e.kind === 'exit');
    expect(retrieveEvents.slice(0, firstExit).filter((e) => e.kind === 'enter')).toHaveLength(3);
    expect(result.trace.filter((e) => e.kind === 'decision' && e.node === 'esc').map((e) => e.data['decision'])).toEqual(['CONTINUE', 'STOP']);
    // Evidence: the anchored passages then the chain's new ones, all from this question's paragraphs.
    expect(result.evidenceIds.length).toBeGreaterThanOrEqual(5);
    const own = new Set(corpus.dataset.contexts[question.id]);
    expect(result.evidenceIds.every((id) => own.has(id))).toBe(true);
    expect(result.usage.byRole).toMatchObject({
      'par2-planner': { calls: 1 },
      'par2-writer': { calls: 2 },
      'par2-esc': { calls: 2 },
      'par2-query-formulator': { calls: 1 },
    });
    expect(result.usage.retrievalCalls).toBe(4);
    expect(result.data?.['queries']).toEqual([
      'Kiss and Tell 1945 film', 'Charles Craft film editor', 'Lord High Treasurer', 'Shirley Temple Chief of Protocol',
    ]);
    // The chain's query was new and found a passage the anchor lacked: no no-progress stop.
    expect(result.trace.filter((e) => e.kind === 'decision' && e.data['decision'] === 'no-progress')).toEqual([]);
    // Every edge taken is reported, one per Send branch, and together they walk the chart.
    expect(takenEdges(result)).toEqual([
      '__start__→plan',
      'plan→retrieve [fanOutSubQueries]', 'plan→retrieve [fanOutSubQueries]', 'plan→retrieve [fanOutSubQueries]',
      'retrieve→rerank_dedupe', 'retrieve→rerank_dedupe', 'retrieve→rerank_dedupe',
      'rerank_dedupe→anchor', 'anchor→generate', 'generate→esc',
      'esc→reformulate [escDecision] CONTINUE', 'reformulate→chain_retrieve [queryProgress] progress', 'chain_retrieve→generate [retrievalProgress] progress', 'generate→esc',
      'esc→final [escDecision] STOP', 'final→__end__',
    ]);
    expect(chartWalkProblems(result.trace, par2Rag().chart())).toEqual([]);
  });

  it('stops at the hop budget H with the latest answer, flagged as such', async () => {
    const provider = createScriptedProvider({
      replies: {
        // Each follow-up finds a paragraph the earlier searches did not, so the loop runs to its budget.
        'par2-planner': [plan(['Kiss and Tell 1945 film', 'Charles Craft film editor'])],
        'par2-writer': [write('draft one'), write('draft two'), write('draft three')],
        'par2-esc': [esc('CONTINUE', 'more')],
        'par2-query-formulator': [JSON.stringify({ query: 'Shirley Temple' }), JSON.stringify({ query: 'Lord High Treasurer' })],
      },
      repeatLast: true,
    });
    const result = await par2Rag({ hopBudget: 3 }).run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question) });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'hop-budget', answer: 'draft three' });
    expect(result.usage.byRole['par2-writer']?.calls).toBe(3);
    expect(result.usage.byRole['par2-esc']?.calls).toBe(3);
    expect(result.trace.filter((e) => e.node === 'chain_retrieve' && e.kind === 'enter')).toHaveLength(2);
    // The run ends in `final`: its decision, its exit, then the edge to __end__.
    expect(result.trace.slice(-3)).toMatchObject([
      { node: 'final', kind: 'decision', data: { hopBudgetExhausted: true } },
      { node: 'final', kind: 'exit' },
      { node: 'final', kind: 'transition', data: { from: 'final', to: '__end__' } },
    ]);
  });

  it('repairs a plan whose queries are blank (no search would run), and fails by name, with the raw replies, when the repair is blank too', async () => {
    const repaired = createScriptedProvider({
      replies: { 'par2-planner': [plan(['   ', '\t']), plan(['Shirley Temple government position'])], 'par2-writer': [write('Chief of Protocol')], 'par2-esc': [esc('STOP')] },
      repeatLast: true,
    });
    const ok = await par2Rag().run(question, { model: createModel({ provider: repaired }), retriever: scopedTo(corpus, question) });
    expect(ok).toMatchObject({ status: 'ok', answer: 'Chief of Protocol' });
    expect(ok.trace.filter((e) => e.node === 'retrieve' && e.kind === 'retrieve')).toHaveLength(1);
    const blank = createScriptedProvider({ replies: { 'par2-planner': [plan(['  '])] }, repeatLast: true });
    const failed = await par2Rag().run(question, { model: createModel({ provider: blank }), retriever: scopedTo(corpus, question) });
    expect(failed).toMatchObject({ status: 'error', error: { code: 'MODEL_OUTPUT' } });
    expect(failed.error?.message).toMatch(/must not be blank/);
    expect(failed.error?.raw).toHaveLength(2);
  });

  it('honours a caller’s maxHops budget as well as its own H', async () => {
    const provider = createScriptedProvider({
      replies: {
        'par2-planner': [plan(['a first search'])],
        'par2-writer': [write('draft')],
        'par2-esc': [esc('CONTINUE', 'more')],
        'par2-query-formulator': [JSON.stringify({ query: 'Shirley Temple government position' }), JSON.stringify({ query: 'Kiss and Tell 1945 film' })],
      },
      repeatLast: true,
    });
    // Two hops: the breadth-first round, then one chain step; the second chain step is refused.
    const result = await par2Rag({ hopBudget: 5 }).run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question), budget: { maxHops: 2 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:maxHops', answer: 'draft' });
    expect(result.trace.filter((e) => e.node === 'retrieve' && e.kind === 'retrieve')).toHaveLength(1);
    expect(result.trace.filter((e) => e.node === 'chain_retrieve' && e.kind === 'retrieve')).toHaveLength(1);
  });

  describe('stops a chain that makes no progress, keeping its answer', () => {
    const noProgressDecisions = (result: RunResult) => result.trace.filter((e) => e.kind === 'decision' && e.data['decision'] === 'no-progress');

    it('a follow-up query that repeats a Stage 1 sub-query (compared normalised) ends at reformulate', async () => {
      const provider = createScriptedProvider({
        replies: {
          'par2-planner': [plan(['Kiss and Tell 1945 film', 'Charles Craft film editor'])],
          'par2-writer': [write('Shirley Temple')],
          'par2-esc': [esc('CONTINUE', 'the 1945 film')],
          'par2-query-formulator': [JSON.stringify({ query: 'kiss and tell (1945 film)?' })],
        },
      });
      const result = await par2Rag().run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question) });
      expect(result).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Shirley Temple' });
      expect(noProgressDecisions(result)).toEqual([
        expect.objectContaining({ node: 'reformulate', data: expect.objectContaining({ kind: 'repeated-query', query: 'kiss and tell (1945 film)?', hop: 1 }) }),
      ]);
      expect(takenEdges(result).slice(-3)).toEqual(['esc→reformulate [escDecision] CONTINUE', 'reformulate→final [queryProgress] repeated-query', 'final→__end__']);
      // No retrieval for the repeated query, no second write.
      expect(result.trace.some((e) => e.node === 'chain_retrieve')).toBe(false);
      expect(result.usage.byRole['par2-writer']?.calls).toBe(1);
      expect(result.data?.['noProgress']).toMatchObject({ kind: 'repeated-query', hop: 1 });
      expect(chartWalkProblems(result.trace, par2Rag().chart())).toEqual([]);
    });

    it('a chain retrieval whose passages are all in C_t already ends at chain_retrieve, after one CONTINUE that did add one', async () => {
      const provider = createScriptedProvider({
        replies: {
          'par2-planner': [plan(['Kiss and Tell 1945 film'])],
          'par2-writer': [write('Shirley Temple'), write('Chief of Protocol')],
          'par2-esc': [esc('CONTINUE', 'her government post'), esc('CONTINUE', 'confirm the post')],
          // The second query is new, but everything it finds was retrieved by the first or by Stage 1.
          'par2-query-formulator': [JSON.stringify({ query: 'Shirley Temple government position' }), JSON.stringify({ query: 'Shirley Temple Chief of Protocol' })],
        },
      });
      const result = await par2Rag().run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question) });
      expect(result).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Chief of Protocol' });
      expect(noProgressDecisions(result)).toEqual([
        expect.objectContaining({ node: 'chain_retrieve', data: expect.objectContaining({ kind: 'no-new-passage', query: 'Shirley Temple Chief of Protocol', hop: 2 }) }),
      ]);
      expect(takenEdges(result).filter((e) => e.startsWith('chain_retrieve→'))).toEqual([
        'chain_retrieve→generate [retrievalProgress] progress',
        'chain_retrieve→final [retrievalProgress] no-new-passage',
      ]);
      // The retrieval did run (and is in the trace); the writer was not asked again over an unchanged context.
      expect(result.trace.filter((e) => e.node === 'chain_retrieve' && e.kind === 'retrieve')).toHaveLength(2);
      expect(result.usage.byRole['par2-writer']?.calls).toBe(2);
      expect(result.trace.at(-3)).toMatchObject({ node: 'final', kind: 'decision', data: { decision: 'answer', answer: 'Chief of Protocol', noProgress: 'no-new-passage' } });
      expect(chartWalkProblems(result.trace, par2Rag().chart())).toEqual([]);
    });

    it('the Iterative Chain variant’s first retrieval is not a loop step: it is never a no-progress stop', async () => {
      const provider = createScriptedProvider({ replies: { 'par2-writer': [write('unknown')], 'par2-esc': [esc('STOP')] } });
      // A query nothing in the question's paragraphs matches: the first retrieval finds nothing, the chain still answers.
      const result = await par2IterativeChain().run({ id: question.id, text: 'zzyzx qwerty' }, { model: createModel({ provider }), retriever: scopedTo(corpus, question) });
      expect(result).toMatchObject({ status: 'ok', answer: 'unknown' });
      expect(noProgressDecisions(result)).toEqual([]);
    });

    it('in the Iterative Chain variant, the raw question it searched first is a searched query: the ESC sees it, and a follow-up repeating it ends at reformulate', async () => {
      const provider = createScriptedProvider({
        replies: {
          'par2-writer': [write('Shirley Temple')],
          'par2-esc': [esc('CONTINUE', 'the question again')],
          'par2-query-formulator': [JSON.stringify({ query: question.text.toUpperCase() })],
        },
      });
      const result = await par2IterativeChain().run(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question) });
      expect(result).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Shirley Temple' });
      expect(noProgressDecisions(result)).toEqual([expect.objectContaining({ node: 'reformulate', data: expect.objectContaining({ kind: 'repeated-query' }) })]);
      expect(result.trace.filter((e) => e.kind === 'retrieve')).toHaveLength(1);
      expect(result.data?.['queries']).toEqual([question.text, question.text.toUpperCase()]);
      expect(provider.requests.find((r) => r.role === 'par2-esc')!.vars['previousQueries']).toEqual([question.text]);
    });
  });

  it('runs the module variants: Coverage Anchor writes once; Iterative Chain starts from the raw question', async () => {
    const anchorOnly = await par2CoverageAnchor().run(question, {
      model: createModel({ provider: createScriptedProvider({ replies: { 'par2-planner': [plan(['one', 'two'])], 'par2-writer': [write('x')] } }) }),
      retriever: scopedTo(corpus, question),
    });
    expect(nodeSequence(anchorOnly)).toEqual(['plan', 'retrieve', 'retrieve', 'rerank_dedupe', 'anchor', 'generate', 'final']);

    const chainOnly = await par2IterativeChain().run(question, {
      model: createModel({ provider: createScriptedProvider({ replies: { 'par2-writer': [write('y')], 'par2-esc': [esc('STOP')] } }) }),
      retriever: scopedTo(corpus, question),
    });
    expect(nodeSequence(chainOnly)).toEqual(['chain_retrieve', 'generate', 'esc', 'final']);
    expect(chainOnly.trace.find((e) => e.kind === 'retrieve')?.data['query']).toBe(question.text);
    expect(chartWalkProblems(anchorOnly.trace, par2CoverageAnchor().chart())).toEqual([]);
    expect(chartWalkProblems(chainOnly.trace, par2IterativeChain().chart())).toEqual([]);
  });

  it('draws its chart from the compiled graph: fan-out, the ESC guard, the loop', () => {
    const chart = par2Rag().chart();
    expect(validateChart(chart)).toEqual([]);
    expect(chart.engine).toBe('langgraph');
    expect(chart.nodes.map((n) => n.id).sort()).toEqual(
      ['__end__', '__start__', 'anchor', 'chain_retrieve', 'esc', 'final', 'generate', 'plan', 'reformulate', 'rerank_dedupe', 'retrieve'].sort(),
    );
    expect(chart.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'plan', to: 'retrieve', kind: 'fanout', guard: 'fanOutSubQueries' }),
        expect.objectContaining({ from: 'esc', to: 'reformulate', kind: 'conditional', guard: 'escDecision', label: 'CONTINUE' }),
        expect.objectContaining({ from: 'esc', to: 'final', kind: 'conditional', guard: 'escDecision', label: 'STOP' }),
        expect.objectContaining({ from: 'reformulate', to: 'chain_retrieve', kind: 'conditional', guard: 'queryProgress', label: 'progress' }),
        expect.objectContaining({ from: 'reformulate', to: 'final', kind: 'conditional', guard: 'queryProgress', label: 'repeated-query' }),
        expect.objectContaining({ from: 'chain_retrieve', to: 'generate', kind: 'conditional', guard: 'retrievalProgress', label: 'progress' }),
        expect.objectContaining({ from: 'chain_retrieve', to: 'final', kind: 'conditional', guard: 'retrievalProgress', label: 'no-new-passage' }),
      ]),
    );
    expect(toMermaid(chart)).toContain('==>');
    expect(par2CoverageAnchor().chart().nodes.map((n) => n.id)).not.toContain('esc');
    expect(par2IterativeChain().chart().nodes.map((n) => n.id)).not.toContain('plan');
  });

  it('runs end to end with the offline model on real questions', async () => {
    const model = offlineModel({ handlers: offlineHandlers });
    const results = [];
    for (const q of corpus.questions.slice(0, 6)) {
      results.push(await par2Rag().run(q, { model, retriever: scopedTo(corpus, q) }));
    }
    const chart = par2Rag().chart();
    for (const r of results) {
      expect(['ok', 'partial']).toContain(r.status);
      expect(r.answer.length).toBeGreaterThan(0);
      expect(r.usage.estimated).toBe(true);
      expect(chartWalkProblems(r.trace, chart)).toEqual([]);
    }
    const anyGold = results.filter((r, i) => r.evidenceIds.slice(0, 5).some((id) => corpus.questions[i]!.supportingIds.includes(id)));
    expect(anyGold.length).toBeGreaterThan(0);
  });
});
