import { createModel } from '@multihop/core';
import { createOfflineProvider, offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/opera/offline';
import { musiqueClosedCorpus, scopedTo } from '../test/musiqueCorpus';
import type { Provider, RolloutRecord } from '@multihop/core';
import { collectRollouts } from './collectRollouts';

let corpus: Awaited<ReturnType<typeof musiqueClosedCorpus>>;
beforeAll(async () => {
  corpus = await musiqueClosedCorpus(6);
});
afterAll(() => corpus.close());

describe('MAPGRPO rollouts on real MuSiQue questions', () => {
  let records: RolloutRecord[];
  beforeAll(async () => {
    records = [];
    for (const q of corpus.questions.slice(0, 4)) {
      records.push(...(await collectRollouts(q, { model: offlineModel({ handlers: offlineHandlers }), retriever: scopedTo(corpus, q), group: 4, dataset: 'musique-dev' })));
    }
  });

  it('samples G candidates per question and role, in stage order, each with prompt, completion, rewards and advantage', () => {
    const groups = new Map<string, RolloutRecord[]>();
    for (const r of records) groups.set(r.group_id, [...(groups.get(r.group_id) ?? []), r]);
    for (const group of groups.values()) {
      expect(group.map((r) => r.sample)).toEqual([0, 1, 2, 3]);
      expect(new Set(group.map((r) => r.role)).size).toBe(1);
      expect(Math.abs(group.reduce((s, r) => s + r.advantage, 0))).toBeLessThan(1e-5);
      for (const r of group) {
        expect(r.reward).toBeCloseTo(Object.entries(r.reward_weights).reduce((s, [k, w]) => s + w * (r.reward_components[k] ?? 0), 0), 5);
        expect(r.prompt.at(-1)?.role).toBe('user');
        expect(r.completion[0]?.role).toBe('assistant');
      }
    }
    const roles = corpus.questions.slice(0, 4).map((q) => records.filter((r) => r.question_id === q.id && r.sample === 0).map((r) => r.stage));
    for (const stages of roles) expect(stages).toEqual([...stages].sort());
    expect(records.filter((r) => r.role === 'opera-plan')).toHaveLength(16);
    expect(records.filter((r) => r.role === 'opera-analysis-answer').length).toBeGreaterThan(0);
    expect(records.filter((r) => r.role === 'opera-rewrite').length).toBeGreaterThan(0);
  });

  it('varies the candidates of at least some groups, so advantages carry a signal', () => {
    const varied = new Set(records.filter((r) => r.advantage !== 0).map((r) => r.group_id));
    expect(varied.size).toBeGreaterThan(0);
    const plans = records.filter((r) => r.role === 'opera-plan' && r.question_id === records[0]!.question_id).map((r) => r.completion[0]!.content);
    expect(plans[0]).toMatch(/from step 1/);
  });

  it('keeps the gold a trainer needs to recompute rewards', () => {
    const rewrite = records.find((r) => r.role === 'opera-rewrite')!;
    expect(rewrite.reward_model.ground_truth['step_gold_passages']).toEqual(expect.any(Array));
    expect(Object.keys(rewrite.reward_components).sort()).toEqual(['format', 'ndcg', 'sqrtNdcg']);
    const analysis = records.find((r) => r.role === 'opera-analysis-answer')!;
    expect(['yes', 'no']).toContain(analysis.reward_model.ground_truth['gold_status']);
    expect(JSON.parse(JSON.stringify(records))).toEqual(records);
  });

  it('scores a step against the gold decomposition when the plan aligns with it', () => {
    // Every analysis group names gold answers: the question's for the final step, the aligned
    // decomposition step's otherwise; only an unaligned intermediate step falls back to grounding.
    for (const r of records.filter((x) => x.role === 'opera-analysis-answer' && x.sample === 0)) {
      const q = corpus.questions.find((x) => x.id === r.question_id)!;
      const answers = r.reward_model.ground_truth['answers'] as string[] | null;
      if (answers) expect([q.answer, ...q.aliases, ...q.decomposition!.map((d) => d.answer)]).toEqual(expect.arrayContaining(answers));
    }
    const decomposed = records.filter((x) => x.role === 'opera-rewrite').map((x) => corpus.questions.find((q) => q.id === x.question_id)!);
    expect(decomposed.every((q) => (q.decomposition?.length ?? 0) > 0)).toBe(true);
  });
});

it('draws candidate 0 at the role’s configured temperature and candidates 1…G−1 at the group’s sampling temperature', async () => {
  const offline = createOfflineProvider({ handlers: offlineHandlers });
  const seen: Array<{ role: string; sample: number; temperature: number | undefined }> = [];
  const provider: Provider = { id: 'offline+log', generate: (r) => (seen.push({ role: r.role, sample: Number(r.vars['sample'] ?? 0), temperature: r.temperature }), offline.generate(r)) };
  const q = corpus.questions[0]!;
  const records = await collectRollouts(q, { model: createModel({ provider }), retriever: scopedTo(corpus, q), group: 3, dataset: 'musique-dev', temperature: 0.7 });
  // The roles with a group of candidates (plan and analysis at least), and only they, are sampled;
  // the executors of a plan candidate's run are not.
  const grouped = new Set(records.map((r) => r.role));
  expect([...grouped]).toEqual(expect.arrayContaining(['opera-plan', 'opera-analysis-answer']));
  expect(new Set(seen.filter((c) => c.sample > 0).map((c) => c.role))).toEqual(grouped);
  for (const call of seen) expect({ ...call, temperature: call.temperature }).toEqual({ ...call, temperature: call.sample > 0 ? 0.7 : undefined });
});

it('refuses to turn a provider outage into zero-reward training data', async () => {
  const down = createModel({ provider: { id: 'down', generate: () => Promise.reject(new Error('connection refused')) } });
  const q = corpus.questions[0]!;
  await expect(collectRollouts(q, { model: down, retriever: scopedTo(corpus, q), group: 2, dataset: 'musique-dev' })).rejects.toThrow(
    /the plan-stage run failed \(provider down: connection refused\)/,
  );
});
