import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { offlineModel } from '@multihop/offline-model';
import { scopedTo, trainCorpus } from '../test/trainCorpus';
import { offlineHandlers } from './offline';
import { FEATURE_NAMES } from './policy/features';
import { loadPolicy } from './policy/PlannerPolicy';
import { manifest } from './manifest';
import { trainPlanner, type EpochProgress } from './trainPlanner';
import { createMaoAragWorkflow } from './workflows';
import { TOP_LEVEL_WORKFLOWS, workflowKey } from './workflowSpace';

let corpus: Awaited<ReturnType<typeof trainCorpus>>;
let dir: string;
beforeAll(async () => {
  // Eight real MuSiQue train questions (musique/train-100.json) over their own paragraphs.
  corpus = await trainCorpus('musique-train', 8);
  dir = mkdtempSync(join(tmpdir(), 'multihop-mao-policy-'));
}, 60_000);
afterAll(() => {
  corpus?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const model = offlineModel({ handlers: offlineHandlers });
const train = (out: string, epochs: number, extra: { resumeFrom?: string; onEpoch?: (p: EpochProgress) => void } = {}) =>
  trainPlanner({ model, modelId: 'offline', retrieverFor: (q) => scopedTo(corpus, q), questions: corpus.questions, epochs, seed: 11, out, samplesPerQuestion: 2, ...extra });

describe('trainPlanner (PPO on runs of the executors)', () => {
  it('reports every epoch and writes a policy file recording the model, data, α, seed, feature spec and cost scale', async () => {
    const out = join(dir, 'policy.json');
    const seen: EpochProgress[] = [];
    const { history } = await train(out, 3, { onEpoch: (p) => seen.push(p) });
    expect(seen.map((p) => p.epoch)).toEqual([1, 2, 3]);
    expect(history).toEqual(seen);
    for (const p of seen) {
      expect(p.meanReward).toBeCloseTo(p.f1 - 0.1 * p.cost, 3);
      expect(p.invalid).toBe(0);
      expect(Object.values(p.chosen).reduce((a, b) => a + b, 0)).toBe(2 * corpus.questions.length);
      for (const workflow of Object.keys(p.chosen)) expect(TOP_LEVEL_WORKFLOWS.map(workflowKey)).toContain(workflow);
    }
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file).toMatchObject({
      format: 'mao-arag-planner-policy',
      featureSpec: { version: 1, names: [...FEATURE_NAMES] },
      training: {
        model: 'offline',
        data: { datasets: ['musique-train'], questionIds: corpus.questions.map((q) => q.id) },
        alpha: 0.1,
        seed: 11,
        epochs: 3,
        epochsDone: 3,
        costScale: { turns: 5, retrievals: 4 },
      },
    });
    expect(file.training.costScale.tokens).toBeGreaterThan(0);
    expect(file.training.history).toHaveLength(3);
    // The policy moved off uniform, and `mao-arag` loads it as its planner.
    expect(file.heads.top.weights.flat().some((w: number) => w !== 0)).toBe(true);
    const workflow = createMaoAragWorkflow({ kind: 'planner' }, { policy: out });
    const result = await workflow.run(corpus.questions[0]!, { model, retriever: scopedTo(corpus, corpus.questions[0]!) });
    expect(result.data).toMatchObject({ planner: 'policy', policyFile: out });
    expect((result.data?.['workflows'] as Array<{ source: string; valid: boolean }>)[0]).toMatchObject({ source: 'policy', valid: true });
  }, 60_000);

  it('is deterministic under a seed, and a resumed run ends where an uninterrupted one does', async () => {
    const straight = join(dir, 'straight.json');
    const resumed = join(dir, 'resumed.json');
    const again = join(dir, 'again.json');
    await train(straight, 3);
    await train(again, 3);
    expect(loadPolicy(again).heads).toEqual(loadPolicy(straight).heads);
    await train(resumed, 2);
    expect(loadPolicy(resumed).training?.epochsDone).toBe(2);
    const { history } = await train(resumed, 3, { resumeFrom: resumed });
    expect(history.map((h) => h.epoch)).toEqual([1, 2, 3]);
    expect(loadPolicy(resumed).heads).toEqual(loadPolicy(straight).heads);
    expect(loadPolicy(resumed).training?.history).toEqual(loadPolicy(straight).training?.history);
  }, 60_000);

  it('refuses to resume another run’s checkpoint', async () => {
    const out = join(dir, 'other.json');
    await train(out, 1);
    await expect(trainPlanner({ model, retrieverFor: (q) => scopedTo(corpus, q), questions: corpus.questions, epochs: 2, seed: 12, out, resumeFrom: out })).rejects.toThrow(/seed 11 ≠ 12/);
    expect(existsSync(out)).toBe(true);
    expect(() => loadPolicy(join(dir, 'missing.json'))).toThrow(/cannot read the planner policy/);
  }, 60_000);
});

describe('the manifest’s local trainer (what `multihop train mao-arag-planner` calls)', () => {
  it('checks its settings, trains, reports each epoch’s figures and resumes from the file it wrote', async () => {
    const [trainer] = manifest.trainers ?? [];
    expect(trainer?.id).toBe('mao-arag-planner');
    expect(trainer!.settings!.parse({})).toMatchObject({ alpha: 0.1, epochs: 40, seed: 1, samplesPerQuestion: 4 });
    expect(trainer!.settings!.safeParse({ epochs: 0 }).success).toBe(false);
    const out = join(dir, 'cli.json');
    const epochs: number[] = [];
    const run = (total: number) =>
      trainer!.train!({
        model,
        modelId: 'offline',
        retrieverFor: (q) => scopedTo(corpus, q),
        questions: corpus.questions.slice(0, 4),
        dataset: 'musique-train',
        out,
        settings: trainer!.settings!.parse({ epochs: total, samplesPerQuestion: 1 }),
        onEpoch: (p) => {
          epochs.push(p.epoch);
          expect(Object.keys(p.metrics)).toEqual(['meanReward', 'f1', 'cost', 'invalid', 'entropy']);
        },
      });
    expect(await run(1)).toMatchObject({ file: out, metrics: { epochs: 1 } });
    expect(await run(2)).toMatchObject({ metrics: { epochs: 2 } });
    expect(epochs).toEqual([1, 2]);
  }, 60_000);
});
