import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, type Provider, type ProviderRequest, type Question, type ScriptedReply } from '@multihop/core';
import { createOfflineProvider } from '@multihop/offline-model';
import { questionStarting, trainCorpus } from '../../test/trainCorpus';
import { ExperienceStore } from '../experienceStore';
import { offlineHandlers } from '../offline';
import { evolveHera, type EvolveOptions } from './evolve';
import { ROPE_AXES } from './rope';
import { heraEvolveSettingsSchema } from './trainer';

let corpus: Awaited<ReturnType<typeof trainCorpus>>;
let bands: Question;
let film: Question;
const dirs: string[] = [];
beforeAll(async () => {
  // Real HotpotQA train questions (hotpotqa/train-100.json) over their own paragraphs in LanceDB.
  corpus = await trainCorpus(12);
  bands = questionStarting(corpus.questions, 'Which band was formed first The Exies or Circus Diablo');
  film = questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland');
}, 60_000);
afterAll(() => {
  corpus?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hera-evolve-'));
  dirs.push(d);
  return d;
};
const json = (v: unknown) => JSON.stringify(v);
const DIRECT = { execution_order: [{ step: 1, agent: 'Retriever', depends_on: [] }, { step: 2, agent: 'Answer Generator', depends_on: [1] }] };
const SELECT = { execution_order: [{ step: 1, agent: 'Retriever', depends_on: [] }, { step: 2, agent: 'Evidence Selector', depends_on: [1] }, { step: 3, agent: 'Answer Generator', depends_on: [2] }] };
const systemOf = (r: ProviderRequest) => r.messages.find((m) => m.role === 'system')?.content ?? '';

/** The scripted roles answer from the script (core's scripted provider); every other role from the offline model. */
function mixed(replies: Record<string, ScriptedReply[]>): Provider & { requests: ProviderRequest[] } {
  const scripted = createScriptedProvider({ replies, repeatLast: true });
  const offline = createOfflineProvider({ handlers: offlineHandlers });
  const requests: ProviderRequest[] = [];
  return { id: 'scripted+offline', requests, generate: (r) => (requests.push(r), r.role in replies ? scripted.generate(r) : offline.generate(r)) };
}
const base = (provider: Provider, questions: Question[], out: string, settings: EvolveOptions['settings']): EvolveOptions => ({
  model: createModel({ provider }),
  retrieverFor: (q) => corpus.retriever.forQuestion(q.id),
  questions,
  out,
  settings,
});
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('HERA learning loop on real HotpotQA train questions over LanceDB', () => {
  it('reflects on a mixed group (ranked F1 ↓, tokens ↑) and adds its insight; skips a uniform group', async () => {
    const answered = new Map<string, number>();
    const provider = mixed({
      'hera-orchestrator': [(r) => json(r.vars['sample'] ? SELECT : DIRECT)],
      // The bands question: right on its first run, wrong on the second; the film question: always wrong.
      'hera-answerer': [(r) => {
        const q = String(r.vars['question']);
        const n = (answered.get(q) ?? 0) + 1;
        answered.set(q, n);
        return json({ answer: q === bands.text && n === 1 ? bands.answer : 'nobody' });
      }],
    });
    const out = tmp();
    const { history, library } = await evolveHera(base(provider, [bands, film], out, { rounds: 1, groupSize: 2, rope: false, mutation: false }));
    expect(history[0]).toMatchObject({ mixedGroups: 1, skippedGroups: 1, add: 1 });
    const reflections = provider.requests.filter((r) => r.role === 'hera-reflect');
    expect(reflections.map((r) => r.vars['question'])).toEqual([bands.text]);
    // The reflection is told the question's type (the greedy run's profile) and what counts as success.
    expect(reflections[0]!.vars).toMatchObject({ successF1: 0.5, analysis: expect.stringMatching(/^[a-z-]+, (easy|medium|hard): \S/) });
    const ranked = reflections[0]!.vars['trajectory'] as Array<{ f1: number; topology: { selected_agents: string[] } }>;
    expect(ranked.map((r) => r.f1)).toEqual([1, 0]);
    expect(ranked[0]!.topology.selected_agents).toEqual(['Retriever', 'Answer Generator']);
    expect(library).toEqual([expect.objectContaining({ id: 'x1', insight: expect.stringContaining('prefer the topology Retriever → Answer Generator over Retriever → Evidence Selector → Answer Generator'), utility: 0 })]);
    // The state directory's library is its LanceDB table (round 1's rows); rounds/1/ keeps a JSON copy.
    expect(existsSync(join(out, 'experience-library.json'))).toBe(false);
    const store = await ExperienceStore.open(out);
    try {
      expect(await store.rounds()).toEqual([1]);
      expect(await store.read()).toEqual(library);
    } finally {
      store.close();
    }
    expect(JSON.parse(read(join(out, 'rounds', '1'), 'experience-library.json'))).toMatchObject({ format: 'hera-experience-library/1', entries: [{ id: 'x1' }] });
  }, 30_000);

  it('samples 1…G−1 call the orchestrator at the sampling temperature (default 0.9); sample 0 sends none (the role keeps its configured temperature)', async () => {
    const orchestrations = async (settings: EvolveOptions['settings']) => {
      const provider = mixed({ 'hera-orchestrator': [json(DIRECT)], 'hera-answerer': [json({ answer: 'nobody' })] });
      await evolveHera(base(provider, [film], tmp(), { rounds: 1, groupSize: 3, rope: false, mutation: false, ...settings }));
      // Every other call of the loop keeps the role's own temperature.
      expect(provider.requests.filter((r) => r.role !== 'hera-orchestrator' && r.temperature !== undefined)).toEqual([]);
      return provider.requests.filter((r) => r.role === 'hera-orchestrator').map((r) => [r.vars['sample'] ?? 0, r.temperature]);
    };
    expect(await orchestrations({})).toEqual([[0, undefined], [1, 0.9], [2, 0.9]]);
    expect(await orchestrations({ temperature: 0.7 })).toEqual([[0, undefined], [1, 0.7], [2, 0.7]]);
    expect(heraEvolveSettingsSchema.parse({}).temperature).toBe(0.9);
  }, 30_000);

  it('RoPE: the blamed agent’s variants are replayed, the winning axis becomes a rule, the prompt is consolidated within K and the diff kept', async () => {
    const provider = mixed({
      'hera-orchestrator': [json(DIRECT)],
      'hera-blame': [json({ agent: 'Answer Generator', reason: 'the evidence held the answer' })],
      'hera-answerer': [(r) => json({ answer: systemOf(r).includes('[error correction]') ? film.answer : 'nobody' })],
    });
    const out = tmp();
    const { history, prompts, diffs } = await evolveHera(base(provider, [film], out, { rounds: 2, groupSize: 2, axes: ['efficiency', 'error correction'], maxRules: 2, mutation: false }));
    expect(history.map((h) => [h.f1, h.promptChanges])).toEqual([[0, 1], [1, 0]]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ promptId: 'hera.answer', generation: 1, rules: [ROPE_AXES['error correction']] });
    expect(prompts[0]!.system.startsWith('You are the Answer Generator of a multi-agent question answering team.')).toBe(true);
    expect(prompts[0]!.rules.length + prompts[0]!.principles.length).toBeLessThanOrEqual(2);
    expect(diffs).toEqual([expect.objectContaining({ promptId: 'hera.answer', agent: 'Answer Generator', added: [ROPE_AXES['error correction']], evidence: expect.objectContaining({ baselineF1: 0, variants: [{ axis: 'efficiency', f1: 0, tokens: expect.any(Number) }, { axis: 'error correction', f1: 1, tokens: expect.any(Number) }] }) })]);
    expect(read(out, 'prompt-diffs.jsonl').trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(read(out, 'prompts.json'))).toMatchObject({ format: 'hera-prompts/1', prompts: [{ promptId: 'hera.answer', generation: 1 }] });
  }, 30_000);

  it('mutates the topology after repeated F1 = 0 on a query profile and runs the candidates in the next group', async () => {
    const provider = mixed({
      'hera-orchestrator': [json(DIRECT)],
      'hera-blame': [json({ agent: 'Answer Generator', reason: 'wrong answer' })],
      'hera-answerer': [json({ answer: 'nobody' })],
      'hera-conclude': [json({ answer: 'nobody either' })],
    });
    const out = tmp();
    const { history } = await evolveHera(base(provider, [film], out, { rounds: 3, groupSize: 3, rope: false, mutationPatience: 2 }));
    expect(history.map((h) => h.mutations)).toEqual([0, 1, 0]);
    // Round 3's group: the greedy run, then the two candidates (Answer Generator → Conclude Agent; Conclude Agent inserted after it).
    const concludes = provider.requests.filter((r) => r.role === 'hera-conclude');
    expect(concludes).toHaveLength(2);
    const forcedRuns = provider.requests.filter((r) => r.role === 'hera-orchestrator').length;
    expect(forcedRuns).toBe(3 * 3 - 2);
  }, 30_000);

  it('credits utility only in a mixed group (Algorithm 3 lines 15–19), from the runs whose orchestrator was shown the insight', async () => {
    // The film question, G = 3: round 1 is mixed (sample 1 right) and adds x1; round 2 fails
    // throughout (a uniform group: no update, no credit) and its second F1 = 0 queues two mutated
    // topologies; round 3's forced runs end with the Conclude Agent, which answers right, so the
    // group is mixed, but only the greedy run asked the orchestrator, which was shown x1.
    let answers = 0;
    const provider = mixed({
      'hera-orchestrator': [json(DIRECT)],
      'hera-blame': [json({ agent: 'Answer Generator', reason: 'wrong answer' })],
      'hera-answerer': [() => json({ answer: ++answers === 2 ? film.answer : 'nobody' })],
      'hera-conclude': [json({ answer: film.answer })],
    });
    const out = tmp();
    const { history, library } = await evolveHera(base(provider, [film], out, { rounds: 3, groupSize: 3, rope: false, mutationPatience: 2 }));
    expect(history.map((h) => [h.mixedGroups, h.skippedGroups, h.mutations])).toEqual([[1, 0, 0], [0, 1, 1], [1, 0, 0]]);
    const x1 = (round: number) => (JSON.parse(read(join(out, 'rounds', String(round)), 'experience-library.json')).entries as Array<{ id: string; uses: number; utility: number }>).find((e) => e.id === 'x1');
    // Round 2's three runs were shown x1, but their group was uniform.
    expect(x1(2)).toMatchObject({ uses: 0, utility: 0 });
    // Round 3: one use (the greedy run, wrong); the two forced runs that succeeded earn nothing.
    expect(library.find((e) => e.id === 'x1')).toMatchObject({ uses: 1, utility: 0 });
  }, 30_000);

  it('resumes after an interruption to the same state as an uninterrupted run', async () => {
    // Four questions at G = 3: offline, one group is mixed in round 1, so the library has rows in both rounds.
    const questions = corpus.questions.slice(0, 4);
    const settings = { rounds: 2, groupSize: 3, axes: ['error correction', 'thoroughness'] as Array<keyof typeof ROPE_AXES> };
    const offline = () => createOfflineProvider({ handlers: offlineHandlers });
    const whole = tmp();
    const a = await evolveHera(base(offline(), questions, whole, settings));
    const broken = tmp();
    const abort = new AbortController();
    const first = await evolveHera({ ...base(offline(), questions, broken, settings), signal: abort.signal, onCheckpoint: ({ round, done }) => { if (round === 1 && done === 2) abort.abort(); } });
    expect(first.history).toHaveLength(0);
    const b = await evolveHera(base(offline(), questions, broken, settings));
    expect(b.history).toEqual(a.history);
    for (const file of ['prompts.json', 'prompt-diffs.jsonl', join('rounds', '1', 'experience-library.json'), join('rounds', '2', 'experience-library.json')]) expect(read(broken, file)).toBe(read(whole, file));
    // The LanceDB files differ (other write histories), so the library table is compared by its rows: every round's.
    const rows = async (dir: string) => {
      const store = await ExperienceStore.open(dir);
      try {
        return await store.rows();
      } finally {
        store.close();
      }
    };
    const wholeRows = await rows(whole);
    expect(new Set(wholeRows.map((r) => r.round))).toEqual(new Set([1, 2]));
    expect(await rows(broken)).toEqual(wholeRows);
  }, 60_000);
});
