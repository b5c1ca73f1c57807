import { createModel, type Provider } from '@multihop/core';
import { createOfflineProvider, offlineModel } from '@multihop/offline-model';
import { questionStarting, scopedTo, trainCorpus } from '../test/trainCorpus';
import { manifest } from './manifest';
import { offlineHandlers } from './offline';

let corpus: Awaited<ReturnType<typeof trainCorpus>>;
beforeAll(async () => {
  corpus = await trainCorpus('hotpotqa-train', 12);
}, 60_000);
afterAll(() => corpus?.dispose());

describe('PPO rollouts of the LLM planner (the JSONL contract OPERA’s rollouts use)', () => {
  it('gives G episodes of one question, one record per planner decision: the planner prompt, the workflow text, R and its components, the answer’s turn', async () => {
    const question = questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland');
    const records = await manifest.trainer!.collectRollouts(question, {
      model: offlineModel({ handlers: offlineHandlers }),
      retriever: scopedTo(corpus, question),
      group: 4,
      dataset: 'hotpotqa-train',
    });
    const top = records.filter((r) => r.extra_info['level'] === 'top');
    expect(top.map((r) => r.sample)).toEqual([0, 1, 2, 3]);
    // Sample 0 is the greedy plan (QDS for this nested question); the others are other workflows of the space.
    expect(top[0]!.completion).toEqual([{ role: 'assistant', content: 'Workflow: QDS' }]);
    expect(new Set(top.map((r) => r.completion[0]!.content)).size).toBe(4);
    for (const r of records) {
      expect(r).toMatchObject({ question_id: question.id, data_source: 'hotpotqa-train', stage: 1, role: 'mao-arag-planner', reward_model: { style: 'rule' } });
      expect(r.prompt.at(-1)!.content).toContain(String(r.extra_info['level'] === 'top' ? question.text : r.extra_info['sub_question']));
      expect(r.reward).toBeCloseTo(r.reward_components['f1']! - 0.1 * r.reward_components['cost']! - r.reward_components['format_penalty']!, 5);
      expect(r.extra_info['answered_at_turn']).toBeGreaterThanOrEqual(1);
    }
    expect(top.every((r) => r.group_id === `${question.id}/mao-arag-planner`)).toBe(true);
    expect(top.reduce((s, r) => s + r.advantage, 0)).toBeCloseTo(0, 5);
    // The QDS episode planned each sub-question on a turn of its own, after the top-level turn.
    const sub = records.filter((r) => r.sample === 0 && r.extra_info['level'] === 'sub');
    expect(sub.length).toBeGreaterThanOrEqual(1);
    expect(sub.map((r) => r.extra_info['turn'])).toEqual(sub.map((_, i) => i + 2));
    expect(sub.every((r) => r.prompt_id === 'mao-arag.sub-planner' && r.advantage === top[0]!.advantage)).toBe(true);
    expect(top[0]!.extra_info['answered_at_turn']).toBe(1 + sub.length);
    expect(JSON.parse(JSON.stringify(records))).toEqual(records);
  }, 30_000);

  it('samples the planner of episodes 1…G−1 at the group’s temperature, and nothing else', async () => {
    const question = questionStarting(corpus.questions, 'Who directed the film that was shot in or around Leland');
    const offline = createOfflineProvider({ handlers: offlineHandlers });
    const calls: Array<{ role: string; sample: unknown; temperature: number | undefined }> = [];
    const provider: Provider = { id: 'offline+log', generate: (r) => (calls.push({ role: r.role, sample: r.vars['sample'], temperature: r.temperature }), offline.generate(r)) };
    await manifest.trainer!.collectRollouts(question, { model: createModel({ provider }), retriever: scopedTo(corpus, question), group: 3, dataset: 'hotpotqa-train', temperature: 0.5 });
    const top = calls.filter((c) => c.role === 'mao-arag-planner' && c.sample !== undefined);
    expect(top.map((c) => [c.sample, c.temperature])).toEqual([[0, undefined], [1, 0.5], [2, 0.5]]);
    expect(calls.filter((c) => c.temperature !== undefined).every((c) => c.role === 'mao-arag-planner' && c.temperature === 0.5)).toBe(true);
    expect(calls.some((c) => c.role !== 'mao-arag-planner')).toBe(true);
  }, 60_000);
});
