import { createModel, createScriptedProvider, toMermaid, validateChart, type Question, type RunResult } from '@multihop/core';
import { chartWalkProblems } from '@multihop/engine-langgraph';
import { offlineModel } from '@multihop/offline-model';
import { questionStarting, scopedTo, timed, trainCorpus } from '../test/trainCorpus';
import { offlineHandlers } from './offline';
import { rewardOfRun } from './rewards';
import { createMaoAragWorkflow } from './workflows';

let corpus: Awaited<ReturnType<typeof trainCorpus>>;
beforeAll(async () => {
  // Real HotpotQA train questions (hotpotqa/train-100.json) over their own paragraphs in LanceDB.
  corpus = await trainCorpus('hotpotqa-train', 12);
}, 60_000);
afterAll(() => corpus?.dispose());

const plan = (workflow: string) => `Workflow: ${workflow}`;
const answer = (text: string) => JSON.stringify({ answer: text });
const subQuestions = (list: string[]) => JSON.stringify({ subQuestions: list });
const decisions = (result: RunResult) => result.trace.filter((e) => e.kind === 'decision');
const workflowDecisions = (result: RunResult) => decisions(result).filter((e) => e.data['decision'] === 'workflow').map((e) => e.data);
const entered = (result: RunResult) => result.trace.filter((e) => e.kind === 'enter').map((e) => e.node);
const noTrain = () => createMaoAragWorkflow({ kind: 'no-train' });
/** QDP into the two bands' sub-questions, each planned R+AG: two searches in one turn. */
const qdpRAG = () =>
  createScriptedProvider({
    repeatLast: true,
    replies: {
      'mao-arag-planner': [plan('QDP'), plan('R,AG')],
      'mao-arag-qdp': [subQuestions(['When was The Exies formed?', 'When was Circus Diablo formed?'])],
      'mao-arag-ag': [answer('1997')],
      'mao-arag-as': [answer('The Exies')],
    },
  });
const scale = { tokens: 2000, turns: 5, retrievals: 4 };

describe('MAO-ARAG on real HotpotQA train questions over LanceDB', () => {
  let film: Question;
  let bands: Question;
  beforeAll(() => {
    film = questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland');
    bands = questionStarting(corpus.questions, 'Which band was formed first The Exies or Circus Diablo');
  });

  it('does not execute an invalid plan: the gate rejects it, FP is charged, and the fallback R+AG answers', async () => {
    const provider = createScriptedProvider({ replies: { 'mao-arag-planner': [plan('R, QR')], 'mao-arag-ag': [answer('Stephen King')] } });
    const workflow = noTrain();
    const result = await workflow.run(film, { model: createModel({ provider }), retriever: scopedTo(corpus, film) });

    expect(result).toMatchObject({ status: 'ok', answer: 'Stephen King' });
    expect(workflowDecisions(result)).toEqual([
      expect.objectContaining({ turn: 1, level: 'top', workflow: 'Workflow: R, QR', valid: false, problems: ['the workflow does not end with AG'] }),
    ]);
    expect(decisions(result).find((e) => e.data['decision'] === 'fallback')?.data).toMatchObject({ runs: 'R+AG', formatPenalty: true });
    // QR, which the plan named, never ran: the fallback did.
    expect(entered(result)).toEqual(['plan', 'validate', 'fallback', 'dispatch', 'R', 'dispatch', 'AG', 'dispatch', 'final']);
    expect(result.usage.byRole['mao-arag-qr']).toBeUndefined();
    expect(result.usage.retrievalCalls).toBe(1);
    expect(result.data?.['reward']).toMatchObject({ formatPenalty: 1, invalidPlans: 1 });
    const reward = rewardOfRun(result, film, scale);
    // F1 = 1 (gold "Stephen King"), so R = 1 − 0.1·CP − 1.
    expect(reward.components['f1']).toBe(1);
    expect(reward.total).toBeCloseTo(1 - 0.1 * reward.components['cost']! - 1, 6);
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
  });

  it('repairs a decomposition whose lines are only numbering, and fails by name with the raw replies when the repair is too (QDS and QDP alike)', async () => {
    for (const [executor, role] of [['QDS', 'mao-arag-qds'], ['QDP', 'mao-arag-qdp']] as const) {
      const repaired = createScriptedProvider({
        repeatLast: true,
        replies: { 'mao-arag-planner': [plan(executor), plan('R,AG')], [role]: [subQuestions(['1.', '-']), subQuestions(['What film was shot in or around Leland, North Carolina in 1986?'])], 'mao-arag-ag': [answer('Stephen King')], 'mao-arag-as': [answer('Stephen King')] },
      });
      const ok = await noTrain().run(film, { model: createModel({ provider: repaired }), retriever: scopedTo(corpus, film) });
      expect({ executor, status: ok.status, answer: ok.answer }).toEqual({ executor, status: 'ok', answer: 'Stephen King' });
      const numbering = createScriptedProvider({ repeatLast: true, replies: { 'mao-arag-planner': [plan(executor)], [role]: [subQuestions(['1.', '2.'])] } });
      const failed = await noTrain().run(film, { model: createModel({ provider: numbering }), retriever: scopedTo(corpus, film) });
      expect({ executor, status: failed.status, code: failed.error?.code }).toEqual({ executor, status: 'error', code: 'MODEL_OUTPUT' });
      expect(failed.error?.message).toMatch(/only list numbering or a bullet/);
      expect(failed.error?.raw).toHaveLength(2);
    }
  });

  it('rejects a decomposition that is not alone, and a sub-question plan that decomposes again', async () => {
    const provider = createScriptedProvider({
      replies: {
        'mao-arag-planner': [plan('QDS'), plan('QDP')],
        'mao-arag-qds': [subQuestions(['What film was shot in or around Leland, North Carolina in 1986?'])],
        'mao-arag-ag': [answer('Maximum Overdrive')],
        'mao-arag-as': [answer('Maximum Overdrive')],
      },
    });
    const result = await noTrain().run(film, { model: createModel({ provider }), retriever: scopedTo(corpus, film) });
    expect(workflowDecisions(result).map((d) => [d['level'], d['valid'], d['problems']])).toEqual([
      ['top', true, []],
      ['sub', false, ['QDP is not available in a sub-question\'s turn']],
    ]);
    expect(result.data?.['reward']).toMatchObject({ formatPenalty: 1, invalidPlans: 1 });
  });

  it('QDS: answers sub-questions one after another, writing the first answer into the second before planning and searching it', async () => {
    const provider = createScriptedProvider({
      replies: {
        'mao-arag-planner': [plan('QDS'), plan('R,AG'), plan('R,DS,AG')],
        'mao-arag-qds': [subQuestions(['What film was shot in or around Leland, North Carolina in 1986?', 'Who directed [answer from step 1]?'])],
        // The reviser sees the first sub-answer and writes it in.
        'mao-arag-qds-revise': [(request) => {
          const [first] = request.vars['trajectory'] as Array<{ answer: string }>;
          return JSON.stringify({ question: `Who directed ${first!.answer}?` });
        }],
        'mao-arag-ds': [JSON.stringify({ keep: [0, 1] })],
        'mao-arag-ag': [answer('Maximum Overdrive'), answer('Stephen King')],
        'mao-arag-as': [answer('Stephen King')],
      },
    });
    const workflow = noTrain();
    const result = await workflow.run(film, { model: createModel({ provider }), retriever: scopedTo(corpus, film) });

    expect(result).toMatchObject({ status: 'ok', answer: 'Stephen King' });
    expect(workflowDecisions(result).map((d) => [d['turn'], d['level'], d['question'], d['workflow']])).toEqual([
      [1, 'top', film.text, 'QDS'],
      [2, 'sub', 'What film was shot in or around Leland, North Carolina in 1986?', 'R+AG'],
      [3, 'sub', 'Who directed Maximum Overdrive?', 'R+DS+AG'],
    ]);
    // The second retrieval searched the revised sub-question and found the film's own paragraph.
    const searches = result.trace.filter((e) => e.kind === 'retrieve');
    expect(searches.map((e) => e.data['query'])).toEqual(['What film was shot in or around Leland, North Carolina in 1986?', 'Who directed Maximum Overdrive?']);
    expect((searches[1]!.data['hits'] as Array<{ title: string }>).map((h) => h.title)).toContain('Maximum Overdrive');
    // The second sub-question's AG saw the first answer; AS saw both.
    const agCalls = provider.requests.filter((r) => r.role === 'mao-arag-ag');
    expect(agCalls[1]!.vars['trajectory']).toEqual([expect.objectContaining({ subGoal: 'What film was shot in or around Leland, North Carolina in 1986?', answer: 'Maximum Overdrive' })]);
    expect(provider.requests.find((r) => r.role === 'mao-arag-as')!.vars['trajectory']).toHaveLength(2);
    expect(entered(result)).toEqual([
      'plan', 'validate', 'QDS', 'sub_plan', 'validate', 'dispatch', 'R', 'dispatch', 'AG', 'dispatch',
      'QDS_next', 'sub_plan', 'validate', 'dispatch', 'R', 'dispatch', 'DS', 'dispatch', 'AG', 'dispatch', 'AS', 'final',
    ]);
    expect(result.data).toMatchObject({ mode: 'serial', turns: 3, answeredAtTurn: 3 });
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
  });

  it('QDP: plans and runs the sub-questions in parallel (every call of a stage starts before the first one ends), then AS merges', async () => {
    const provider = timed(
      createScriptedProvider({
        latencyMs: 40,
        repeatLast: true,
        replies: {
          'mao-arag-planner': [plan('QDP'), plan('R,AG'), plan('AG')],
          'mao-arag-qdp': [subQuestions(['When was The Exies formed?', 'When was Circus Diablo formed?'])],
          'mao-arag-ag': [(request) => answer(String(request.vars['question']).includes('Exies') ? '1997' : '2004')],
          'mao-arag-as': [answer('The Exies')],
        },
      }),
    );
    const workflow = noTrain();
    const result = await workflow.run(bands, { model: createModel({ provider }), retriever: scopedTo(corpus, bands) });

    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ status: 'ok', answer: 'The Exies' });
    const overlapping = (calls: typeof provider.calls) => calls.every((c) => c.start < Math.min(...calls.map((o) => o.end)));
    const subPlans = provider.calls.filter((c) => c.promptId === 'mao-arag.sub-planner');
    const answers = provider.calls.filter((c) => c.role === 'mao-arag-ag');
    expect(subPlans).toHaveLength(2);
    expect(answers).toHaveLength(2);
    expect(overlapping(subPlans)).toBe(true);
    expect(overlapping(answers)).toBe(true);
    const summarise = provider.calls.find((c) => c.role === 'mao-arag-as')!;
    expect(summarise.start).toBeGreaterThanOrEqual(Math.max(...answers.map((c) => c.end)));
    expect(summarise.vars['trajectory']).toEqual([
      expect.objectContaining({ subGoal: 'When was The Exies formed?', answer: '1997' }),
      expect.objectContaining({ subGoal: 'When was Circus Diablo formed?', answer: '2004' }),
    ]);
    // Each sub-question has its own plan, in the same turn: R+AG for one, AG alone for the other.
    expect(workflowDecisions(result).map((d) => [d['turn'], d['level'], d['workflow']])).toEqual([
      [1, 'top', 'QDP'],
      [2, 'sub', 'R+AG'],
      [2, 'sub', 'AG'],
    ]);
    expect(result.usage.retrievalCalls).toBe(1);
    // Two sub_plan branches from one fan-out, then one gate over both.
    expect(result.trace.filter((e) => e.kind === 'transition' && e.data['from'] === 'QDP').map((e) => e.data['guard'])).toEqual(['parallelSubQuestions', 'parallelSubQuestions']);
    expect(result.data).toMatchObject({ mode: 'parallel', turns: 2, answeredAtTurn: 2 });
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
  });

  it("QDP: the run's evidence is in sub-question order, whichever parallel search returns first", async () => {
    const run = async (slow: string) => {
      const provider = qdpRAG();
      // The real LanceDB search, with one sub-question's search held back.
      const lance = scopedTo(corpus, bands);
      const retriever = { search: async (query: string, options?: { k?: number }) => (query.includes(slow) ? new Promise<void>((done) => setTimeout(done, 300)) : Promise.resolve()).then(() => lance.search(query, options)) };
      return noTrain().run(bands, { model: createModel({ provider }), retriever });
    };
    const exiesLast = await run('Exies');
    const diabloLast = await run('Diablo');
    expect([exiesLast.status, diabloLast.status]).toEqual(['ok', 'ok']);
    expect(exiesLast.evidence.map((e) => [e.id, e.query])).toEqual(diabloLast.evidence.map((e) => [e.id, e.query]));
    expect(exiesLast.evidence[0]).toMatchObject({ query: 'When was The Exies formed?' });
    expect(new Set(exiesLast.evidence.map((e) => e.query))).toEqual(new Set(['When was The Exies formed?', 'When was Circus Diablo formed?']));
  });

  it("QDP: when one sub-question's search fails, the passages the others retrieved stay in the run's evidence", async () => {
    const provider = qdpRAG();
    // The real LanceDB search, but the index is unreachable for one of the two queries.
    const lance = scopedTo(corpus, bands);
    const retriever = { search: async (query: string, options?: { k?: number }) => (query.includes('Diablo') ? Promise.reject(new Error('search index unreachable')) : lance.search(query, options)) };
    const result = await noTrain().run(bands, { model: createModel({ provider }), retriever });
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain('search index unreachable');
    expect(result.evidence.length).toBeGreaterThan(0);
    expect(new Set(result.evidence.map((e) => e.query))).toEqual(new Set(['When was The Exies formed?']));
  });

  it('stops a serial decomposition at the turn bound, and AS answers from the sub-answers it has', async () => {
    const provider = createScriptedProvider({
      replies: {
        'mao-arag-planner': [plan('QDS'), plan('AG')],
        'mao-arag-qds': [subQuestions(['first step?', 'second step [answer from step 1]?', 'third step?', 'fourth step?'])],
        'mao-arag-qds-revise': [JSON.stringify({ question: 'second step, revised?' })],
        'mao-arag-ag': [answer('one'), answer('two')],
        'mao-arag-as': [answer('two')],
      },
      repeatLast: true,
    });
    const workflow = createMaoAragWorkflow({ kind: 'no-train' }, { maxTurns: 3 });
    const result = await workflow.run(film, { model: createModel({ provider }), retriever: scopedTo(corpus, film) });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'turn-bound', answer: 'two' });
    expect(workflowDecisions(result).map((d) => d['turn'])).toEqual([1, 2, 3]);
    expect(decisions(result).find((e) => e.data['decision'] === 'turn-bound')?.data).toMatchObject({ turns: 3, maxTurns: 3, answered: 2, left: ['third step?', 'fourth step?'] });
    expect(provider.requests.filter((r) => r.role === 'mao-arag-ag')).toHaveLength(2);
    expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
  });

  it('a fixed workflow runs exactly its executors, and a learned planner’s choice shows as the decision', async () => {
    const workflow = createMaoAragWorkflow({ kind: 'fixed', workflow: ['QR', 'R', 'DS', 'AG'] });
    const result = await workflow.run(film, { model: offlineModel({ handlers: offlineHandlers }), retriever: scopedTo(corpus, film) });
    expect(entered(result).filter((n) => ['QR', 'R', 'DS', 'AG'].includes(n))).toEqual(['QR', 'R', 'DS', 'AG']);
    expect(workflowDecisions(result)).toEqual([expect.objectContaining({ workflow: 'QR+R+DS+AG', valid: true, source: 'fixed' })]);
    // QR's rewrite is what R searched.
    const rewrite = result.trace.find((e) => e.kind === 'llm' && e.node === 'QR')!.data['output'] as { query: string };
    expect(result.trace.find((e) => e.kind === 'retrieve')!.data['query']).toBe(rewrite.query);
  });

  it('runs end to end with the offline model: the untrained planner picks per question, every run a walk on the chart', async () => {
    const model = offlineModel({ handlers: offlineHandlers });
    const workflow = noTrain();
    const chosen = new Set<string>();
    for (const question of corpus.questions) {
      const result = await workflow.run(question, { model, retriever: scopedTo(corpus, question) });
      expect(result.status).toBe('ok');
      expect(chartWalkProblems(result.trace, workflow.chart())).toEqual([]);
      for (const id of result.evidenceIds) expect(corpus.dataset.contexts[question.id]).toContain(id);
      chosen.add(String(workflowDecisions(result)[0]!['workflow']));
    }
    // Comparisons go to QDP, nested descriptions to QDS, the rest to the full pipeline.
    expect([...chosen].sort()).toEqual(['QDP', 'QDS', 'QR+R+DS+AG']);
  }, 30_000);

  it('draws the planner, the validity gate, every executor and the serial and parallel branches', () => {
    const chart = noTrain().chart();
    expect(validateChart(chart)).toEqual([]);
    expect(chart.nodes.map((n) => n.id).sort()).toEqual(
      ['__end__', '__start__', 'plan', 'validate', 'fallback', 'QDS', 'QDP', 'sub_plan', 'QDS_next', 'dispatch', 'QR', 'R', 'DS', 'AG', 'AS', 'final'].sort(),
    );
    expect(chart.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'validate', to: 'fallback', guard: 'validityGate', label: 'invalid' }),
        expect.objectContaining({ from: 'validate', to: 'QDS', guard: 'validityGate' }),
        expect.objectContaining({ from: 'QDP', to: 'sub_plan', kind: 'fanout', guard: 'parallelSubQuestions' }),
        expect.objectContaining({ from: 'dispatch', to: 'QDS_next', guard: 'nextExecutor', label: 'next-sub-question' }),
        expect.objectContaining({ from: 'dispatch', to: 'AS', guard: 'nextExecutor', label: 'summarise' }),
      ]),
    );
    expect(toMermaid(chart)).toContain('==>');
  });
});
