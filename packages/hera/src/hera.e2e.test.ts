import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, type Question, type RunResult, type ScriptedReply } from '@multihop/core';
import { chartWalkProblems } from '@multihop/engine-langgraph';
import { offlineModel } from '@multihop/offline-model';
import { questionStarting, timed, trainCorpus } from '../test/trainCorpus';
import { offlineHandlers } from './offline';
import { heraScore } from './score';
import type { Topology } from './topology';
import { createHeraWorkflow } from './workflows';

let corpus: Awaited<ReturnType<typeof trainCorpus>>;
beforeAll(async () => {
  // Real HotpotQA train questions (hotpotqa/train-100.json) over their own paragraphs in LanceDB.
  corpus = await trainCorpus(12);
}, 60_000);
afterAll(() => corpus?.dispose());

const json = (value: unknown) => JSON.stringify(value);
const profile = json({ query_type: 'comparison', complexity: 'medium', profile: 'Compares two bands by founding year.' });
const decisions = (result: RunResult, name: string) => result.trace.filter((e) => e.kind === 'decision' && e.data['decision'] === name).map((e) => e.data);
const entered = (result: RunResult) => result.trace.filter((e) => e.kind === 'enter').map((e) => e.node);
const retriever = (question: Question) => corpus.retriever.forQuestion(question.id);
/** Decompose, then two Retrievers in one layer (one per sub-question), then answer. */
const twoRetrievers = {
  query_profile: 'comparison of two bands',
  selected_agents: ['Query Decomposer', 'Retriever', 'Answer Generator'],
  execution_order: [
    { step: 1, agent: 'Query Decomposer', depends_on: [] },
    { step: 2, agent: 'Retriever', depends_on: [1] },
    { step: 3, agent: 'Retriever', depends_on: [1] },
    { step: 4, agent: 'Answer Generator', depends_on: [2, 3] },
  ],
  mode: 'parallel',
};
/** The model's side of a twoRetrievers run on the bands question, each Retriever's reply from `search`. */
const twoRetrieverScript = (search: ScriptedReply) =>
  createScriptedProvider({
    repeatLast: true,
    replies: {
      'hera-profiler': [profile],
      'hera-orchestrator': [json(twoRetrievers)],
      'hera-decomposer': [json({ subQuestions: ['When was The Exies formed?', 'When was Circus Diablo formed?'] })],
      'hera-retriever': [search],
      'hera-answerer': [json({ answer: 'The Exies' })],
    },
  });

describe('HERA on real HotpotQA train questions over LanceDB, scripted model', () => {
  let bands: Question;
  let film: Question;
  beforeAll(() => {
    bands = questionStarting(corpus.questions, 'Which band was formed first The Exies or Circus Diablo');
    film = questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland');
  });

  it('runs a valid DAG: independent steps start together, dependents after their inputs, the trace carries the topology', async () => {
    const topology = {
      query_profile: 'comparison of two bands',
      selected_agents: ['Query Decomposer', 'Retriever', 'Answer Generator', 'Conclude Agent'],
      execution_order: [
        { step: 1, agent: 'Query Decomposer', depends_on: [] },
        { step: 2, agent: 'Retriever', depends_on: [1] },
        { step: 3, agent: 'Retriever', depends_on: [1] },
        { step: 4, agent: 'Answer Generator', depends_on: [2] },
        { step: 5, agent: 'Answer Generator', depends_on: [3] },
        { step: 6, agent: 'Conclude Agent', depends_on: [4, 5] },
      ],
      mode: 'parallel',
    };
    const provider = timed(
      createScriptedProvider({
        latencyMs: 40,
        repeatLast: true,
        replies: {
          'hera-profiler': [profile],
          'hera-orchestrator': [json(topology)],
          'hera-decomposer': [json({ subQuestions: ['When was The Exies formed?', 'When was Circus Diablo formed?'] })],
          'hera-retriever': [(r) => json({ query: String(r.vars['subGoal']) })],
          'hera-answerer': [(r) => json({ answer: String(r.vars['subGoal']).includes('Exies') ? '1997' : '2004' })],
          'hera-conclude': [json({ answer: 'The Exies' })],
        },
      }),
    );
    const workflow = createHeraWorkflow();
    const result = await workflow.run(bands, { model: createModel({ provider }), retriever: retriever(bands) });

    expect(result).toMatchObject({ status: 'ok', answer: 'The Exies' });
    // Both Retriever steps searched their own sub-question, at the same time.
    const searches = provider.calls.filter((c) => c.role === 'hera-retriever');
    expect(searches.map((c) => c.vars['subGoal']).sort()).toEqual(['When was Circus Diablo formed?', 'When was The Exies formed?']);
    const [a, b] = searches;
    expect(a!.start).toBeLessThan(b!.end);
    expect(b!.start).toBeLessThan(a!.end);
    // Dependents after their inputs: the decomposer before the Retrievers, both answers before Conclude.
    const at = (role: string) => provider.calls.filter((c) => c.role === role);
    expect(at('hera-decomposer')[0]!.end).toBeLessThanOrEqual(Math.min(a!.start, b!.start));
    expect(Math.max(...at('hera-answerer').map((c) => c.end))).toBeLessThanOrEqual(at('hera-conclude')[0]!.start);

    const [chosen] = decisions(result, 'topology');
    expect(chosen).toMatchObject({ source: 'orchestrator', topology: { mode: 'parallel', selected_agents: ['Query Decomposer', 'Retriever', 'Answer Generator', 'Conclude Agent'] } });
    expect((chosen!['topology'] as Topology).execution_order.map((s) => [s.step, s.agent, s.depends_on])).toEqual([
      ['1', 'Query Decomposer', []],
      ['2', 'Retriever', ['1']],
      ['3', 'Retriever', ['1']],
      ['4', 'Answer Generator', ['2']],
      ['5', 'Answer Generator', ['3']],
      ['6', 'Conclude Agent', ['4', '5']],
    ]);
    expect(decisions(result, 'layer').map((d) => d['steps'])).toEqual([['1'], ['2', '3'], ['4', '5'], ['6']]);
    const steps = result.trace.filter((e) => e.kind === 'enter' && e.data['step'] !== undefined).map((e) => [e.node, e.data['step']]);
    expect(steps).toEqual(expect.arrayContaining([['QueryDecomposer', '1'], ['Retriever', '2'], ['Retriever', '3'], ['AnswerGenerator', '4'], ['AnswerGenerator', '5'], ['ConcludeAgent', '6']]));
    expect(result.evidenceIds.length).toBeGreaterThan(0);
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
    // The run's score: four agents; QD→R twice, R→AG twice, AG→Conclude twice; no loop; depth 3.
    expect(heraScore(result, bands)).toMatchObject({ agents: 4, selfLoops: 0, cycles: 0, diameter: 3, steps: 6 });
  });

  it("orders the run's evidence by step, not by which parallel Retriever's search returned first", async () => {
    // The same run twice; only which of the two searches comes back first differs.
    const runWithSlow = async (slow: string) => {
      const provider = twoRetrieverScript(async (r) => {
        const subGoal = String(r.vars['subGoal']);
        if (subGoal.includes(slow)) await new Promise((done) => setTimeout(done, 300));
        return json({ query: subGoal });
      });
      return createHeraWorkflow().run(bands, { model: createModel({ provider }), retriever: retriever(bands) });
    };
    const exiesLast = await runWithSlow('Exies');
    const diabloLast = await runWithSlow('Diablo');
    expect([exiesLast.status, diabloLast.status]).toEqual(['ok', 'ok']);
    expect(exiesLast.evidence.map((e) => [e.id, e.query, e.hop])).toEqual(diabloLast.evidence.map((e) => [e.id, e.query, e.hop]));
    // Step 2 (the first sub-question's Retriever) comes first even when its search returned last.
    expect(exiesLast.evidence[0]).toMatchObject({ query: 'When was The Exies formed?', hop: 2 });
    expect(new Set(exiesLast.evidence.map((e) => e.query))).toEqual(new Set(['When was The Exies formed?', 'When was Circus Diablo formed?']));
  });

  it('keeps in the evidence what a layer retrieved when the budget stops one of its steps (LangGraph drops the layer\'s writes)', async () => {
    // Step 2's call is the run's fourth and last: it searches after step 3's call has hit the budget.
    const provider = twoRetrieverScript(async (r) => (await new Promise((done) => setTimeout(done, 100)), json({ query: String(r.vars['subGoal']) })));
    const result = await createHeraWorkflow().run(bands, { model: createModel({ provider }), retriever: retriever(bands), budget: { maxLlmCalls: 4 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:maxLlmCalls' });
    const retrieved = result.trace.filter((e) => e.kind === 'retrieve').flatMap((e) => (e.data['hits'] as Array<{ id: string }>).map((h) => h.id));
    expect(retrieved.length).toBeGreaterThan(0);
    expect(result.evidenceIds).toEqual([...new Set(retrieved)]);
  });

  it('rejects a cyclic topology, naming the steps; repairs once; rejects the dangling repair; runs the fallback', async () => {
    const cyclic = {
      query_profile: 'bridge',
      selected_agents: ['Retriever', 'Answer Generator'],
      execution_order: [
        { step: 1, agent: 'Retriever', depends_on: [3] },
        { step: 2, agent: 'Evidence Selector', depends_on: [1] },
        { step: 3, agent: 'Answer Generator', depends_on: [2] },
      ],
      mode: 'sequential',
    };
    const dangling = { ...cyclic, execution_order: [{ step: 1, agent: 'Retriever', depends_on: [] }, { step: 2, agent: 'Answer Generator', depends_on: [1, 7] }] };
    const provider = createScriptedProvider({
      replies: {
        'hera-profiler': [json({ query_type: 'bridge', complexity: 'medium', profile: 'A film, then its director.' })],
        'hera-orchestrator': [json(cyclic), json(dangling)],
        'hera-retriever': [json({ query: 'film shot in Leland North Carolina director' })],
        'hera-answerer': [json({ answer: 'Stephen King' })],
      },
    });
    const workflow = createHeraWorkflow();
    const result = await workflow.run(film, { model: createModel({ provider }), retriever: retriever(film) });

    expect(result).toMatchObject({ status: 'ok', answer: 'Stephen King' });
    const rejected = decisions(result, 'topology-rejected');
    expect(rejected.map((d) => [d['source'], d['steps']])).toEqual([
      ['orchestrator', ['1']],
      ['repair', ['2']],
    ]);
    expect(rejected[0]!['problems']).toEqual(['steps 1, 2, 3 depend on each other in a cycle: 1 → 3 → 2 → 1 (each depends on the next)']);
    expect(rejected[1]!['problems']).toEqual(['step 2 depends on step 7, which is not in the plan (steps: 1, 2)']);
    // The repair prompt saw the first problems.
    const repairCall = provider.requests.find((r) => r.promptId === 'hera.repair')!;
    expect(repairCall.vars['problems']).toEqual(rejected[0]!['problems']);
    expect(decisions(result, 'topology')).toEqual([expect.objectContaining({ source: 'fallback', topology: expect.objectContaining({ selected_agents: ['Retriever', 'Answer Generator'] }) })]);
    expect(entered(result)).toEqual(['profile', 'retrieve_experience', 'orchestrate', 'validate', 'repair', 'validate', 'fallback', 'dispatch', 'layer', 'Retriever', 'dispatch', 'layer', 'AnswerGenerator', 'dispatch', 'final']);
    expect(result.data?.['topologySource']).toBe('fallback');
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
  });

  it('gives the orchestrator the library’s experiences for a similar profile, best utility first; hera-no-library gives none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hera-library-'));
    const file = join(dir, 'library.json');
    writeFileSync(
      file,
      json({
        format: 'hera-experience-library/1',
        entries: [
          { id: 'e1', profile: { query_type: 'comparison' }, insight: 'Retrieve each compared entity in parallel, then conclude.', utility: 2, uses: 0 },
          { id: 'e2', profile: { query_type: 'comparison' }, insight: 'Retrieve each compared entity in parallel and then conclude.', utility: 1, uses: 0 },
          { id: 'e3', profile: { query_type: 'bridge' }, insight: 'Answer the first hop before searching the second.', utility: 5, uses: 0 },
          { id: 'e4', profile: { query_type: 'comparison' }, insight: 'Use a Context Validator when dates are missing.', utility: 3, uses: 1 },
        ],
      }),
    );
    try {
      const model = () => {
        const provider = createScriptedProvider({ repeatLast: true, replies: { 'hera-profiler': [profile], 'hera-orchestrator': [json({ execution_order: [{ step: 1, agent: 'Retriever' }, { step: 2, agent: 'Answer Generator', depends_on: [1] }] })], 'hera-retriever': [json({ query: 'The Exies' })], 'hera-answerer': [json({ answer: 'The Exies' })] } });
        return { provider, model: createModel({ provider }) };
      };
      const full = model();
      const result = await createHeraWorkflow('full', { experienceLibrary: file }).run(bands, { model: full.model, retriever: retriever(bands) });
      const memory = full.provider.requests.find((r) => r.promptId === 'hera.orchestrate')!.vars['memory'] as Array<{ id: string }>;
      // e3 is another type; e2 is redundant with e1.
      expect(memory.map((e) => e.id)).toEqual(['e4', 'e1']);
      expect(decisions(result, 'experiences')[0]).toMatchObject({ library: 4, retrieved: [{ id: 'e4', utility: 3 }, { id: 'e1', utility: 2 }] });
      const ablation = model();
      const plain = await createHeraWorkflow('no-library', { experienceLibrary: file }).run(bands, { model: ablation.model, retriever: retriever(bands) });
      expect(ablation.provider.requests.find((r) => r.promptId === 'hera.orchestrate')!.vars['memory']).toEqual([]);
      expect(entered(plain)).not.toContain('retrieve_experience');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HERA offline on real HotpotQA train questions', () => {
  it('chooses topologies by question type: parallel branches for a comparison, a hop-by-hop chain for a bridge', async () => {
    const model = offlineModel({ handlers: offlineHandlers });
    const workflow = createHeraWorkflow();
    const run = (prefix: string) => {
      const question = questionStarting(corpus.questions, prefix);
      return workflow.run(question, { model, retriever: retriever(question) });
    };
    const comparison = await run('Which band was formed first The Exies or Circus Diablo');
    const bridge = await run('Who directed the film that was shot in or around Leland');
    for (const result of [comparison, bridge]) {
      expect(result.status).toBe('ok');
      expect(result.answer).not.toBe('');
      expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
    }
    const agents = (result: RunResult) => (result.data?.['topology'] as Topology).execution_order.map((s) => s.agent);
    expect(comparison.data?.['topology']).toMatchObject({ mode: 'parallel' });
    expect(agents(comparison)).toEqual(['Query Decomposer', 'Retriever', 'Retriever', 'Answer Generator', 'Answer Generator', 'Conclude Agent']);
    expect(bridge.data?.['topology']).toMatchObject({ mode: 'sequential' });
    expect(agents(bridge)).toEqual(['Query Decomposer', 'Retriever', 'Answer Generator', 'Retriever', 'Answer Generator']);
    // A chain that reuses agents: Retriever → Answer Generator → Retriever is a cycle of the agent graph.
    expect(heraScore(bridge, questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland'))).toMatchObject({ agents: 3, cycles: 1 });
  }, 30_000);
});
