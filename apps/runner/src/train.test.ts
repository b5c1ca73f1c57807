import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inPart, loadDataset } from '@multihop/datasets';
import { sharedDatasetsDir } from '@multihop/testing';
import type { Summary } from './eval/summarize';
import { cli } from '../test/cli';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-train-'));
const db = join(dir, 'db');

describe('multihop train', () => {
  it('trains the MAO-ARAG planner on two train files, and eval runs the policy it wrote, naming it', async () => {
    const policy = join(dir, 'planner.json');
    const trained = await cli('train', 'mao-arag-planner', '--dataset', 'hotpotqa-train,musique-train', '--limit', '2', '--epochs', '2', '--alpha', '0.2', '--seed', '3', '--out', policy, '--db', db);
    expect(trained).toMatchObject({ code: 0 });
    expect(trained.err).toContain('train mao-arag-planner: 4 questions of hotpotqa-train+musique-train');
    expect(trained.err).toMatch(/epoch 1\/2: meanReward -?\d/);
    expect(trained.err).toMatch(/epoch 2\/2: .*\(offline model\)/);
    expect(trained.out).toMatch(/^wrote .*planner\.json: .*rewards from the offline model’s runs/);
    // The policy file records what it was trained with: model, data, α, seed.
    const file = JSON.parse(readFileSync(policy, 'utf8')) as { training: { model: string; data: { datasets: string[]; questionIds: string[] }; alpha: number; seed: number; epochsDone: number } };
    expect(file.training).toMatchObject({ model: 'offline', alpha: 0.2, seed: 3, epochsDone: 2, data: { datasets: ['hotpotqa-train', 'musique-train'] } });
    expect(file.training.data.questionIds).toHaveLength(4);

    const out = join(dir, 'eval');
    const evaluated = await cli('eval', '--workflows', 'mao-arag,mao-arag-fixed:R+AG', '--dataset', 'hotpotqa-train', '--offset', '90', '--limit', '2', '--set', `mao-arag.policy=${policy}`, '--out', out, '--db', db);
    expect(evaluated.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    // The method-wide --set reaches the workflow that has the setting and skips the fixed one.
    expect(summary.settings['mao-arag']).toMatchObject({ policy });
    expect(summary.settings['mao-arag-fixed:R+AG']).not.toHaveProperty('policy');
    expect(evaluated.out).toContain(`policy="${policy}"`);
    // Trained one more epoch in place (the trainer resumes from its file): the eval's runs are the old policy's, so its resume is refused.
    expect((await cli('train', 'mao-arag-planner', '--dataset', 'hotpotqa-train,musique-train', '--limit', '2', '--epochs', '3', '--alpha', '0.2', '--seed', '3', '--out', policy, '--db', db)).code).toBe(0);
    const resumed = await cli('eval', '--workflows', 'mao-arag,mao-arag-fixed:R+AG', '--dataset', 'hotpotqa-train', '--offset', '90', '--limit', '2', '--set', `mao-arag.policy=${policy}`, '--out', out, '--db', db);
    expect(resumed.code).toBe(2);
    expect(resumed.err).toContain(`mao-arag ran here built from ${policy} as it was then (sha1 `);
  });

  it('evolves HERA on part K of N of its questions (--part), as train and eval take them', async () => {
    const { questions } = await loadDataset('hotpotqa-train');
    const kept = questions.slice(3, 9).filter((q) => inPart(q.id, { part: 2, of: 2 })).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(6);
    const evolved = await cli('evolve', '--workflow', 'hera', '--dataset', 'hotpotqa-train', '--offset', '3', '--limit', '6', '--part', '2/2', '--rounds', '1', '--out', join(dir, 'hera-part'), '--db', db);
    expect(evolved).toMatchObject({ code: 0 });
    expect(evolved.err).toContain(`: ${kept} questions of hotpotqa-train`);
  });

  it('evolves HERA\'s state on train questions (rounds as epochs) and the hera workflow loads it', async () => {
    const state = join(dir, 'hera-state');
    const evolved = await cli('evolve', '--workflow', 'hera', '--dataset', 'hotpotqa-train', '--limit', '3', '--rounds', '1', '--out', state, '--db', db);
    expect(evolved).toMatchObject({ code: 0 });
    expect(evolved.err).toMatch(/round 1\/1: .*\(offline model\)/);
    expect(evolved.out).toContain(`use it with: --set hera.state=${state} (multihop run --workflow hera, or eval --workflows hera,...)`);
    const out = join(dir, 'eval-hera');
    const run = await cli('eval', '--workflows', 'hera', '--dataset', 'hotpotqa-train', '--offset', '90', '--limit', '1', '--set', `hera.state=${state}`, '--out', out, '--db', db);
    expect(run.code).toBe(0);
    expect(await cli('evolve', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-train')).toMatchObject({ code: 2, err: expect.stringContaining("par2-rag's method (par2-rag) learns nothing on this machine; methods that do: hera, mao-arag\n") });
    // The router learns from evals: evolve points to train --from, and lists it with no method that evolves.
    expect(await cli('evolve', '--workflow', 'router', '--dataset', 'hotpotqa-train')).toMatchObject({ code: 2, err: 'multihop: router learns from finished evals, not from runs of its own: multihop train router --from <eval dir> --out FILE\n' });
    expect(await cli('evolve', '--workflow', 'hera', '--dataset', 'hotpotqa-train', '--out', join(dir, 'axes'), '--set', 'hera-evolve.axes=efficiency,speed')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown RoPE axis "speed"; axes: efficiency, thoroughness'),
    });
  });

  it('says what is wrong with a train command', async () => {
    expect(await cli('train', 'nope', '--dataset', 'hotpotqa-train', '--out', join(dir, 'x.json'))).toMatchObject({ code: 2, err: expect.stringMatching(/unknown trainer "nope"; trainers: (.*, )?mao-arag-planner \(/) });
    expect(await cli('train', 'mao-arag-planner', '--dataset', 'hotpotqa-train', '--out', join(dir, 'x.json'), '--alpha', 'lots')).toMatchObject({ code: 2, err: expect.stringContaining('--alpha must be a number, got "lots"') });
    expect(await cli('train', 'mao-arag-planner', '--dataset', 'hotpotqa-train', '--out', join(dir, 'x.json'), '--set', 'mao-arag-planner.gamma=1')).toMatchObject({
      code: 2,
      err: expect.stringContaining('trainer mao-arag-planner has no setting "gamma"'),
    });
    expect(await cli('train', 'mao-arag-planner', '--dataset', 'hotpotqa-train,hotpotqa-train', '--out', join(dir, 'x.json'))).toMatchObject({ code: 2, err: expect.stringContaining('distinct datasets') });
  });
});

describe('train from evals: conditions that differ between the evals', () => {
  const { mixedConditions } = require('./commands/train') as typeof import('./commands/train');
  const source = (dir: string, extra: object = {}) => ({ dir, dataset: 'hotpotqa-train', setting: 'open', model: 'offline', offset: 0, questions: 2, questionIds: ['a', 'b'], workflows: ['direct', 'single-turn-rag'], ...extra });

  it('says nothing when the evals ran alike', () => {
    expect(mixedConditions([source('e1', { workflowSettings: { 'single-turn-rag': { k: 5 } } }), source('e2', { workflowSettings: { 'single-turn-rag': { k: 5 } } })])).toEqual([]);
  });

  it('names another setting, a run budget and a candidate set up otherwise, with the evals each came from', () => {
    const lines = mixedConditions([
      source('e1', { workflowSettings: { 'single-turn-rag': { k: 5 } } }),
      source('e2', { setting: 'closed', budget: { maxLlmCalls: 2 }, workflowSettings: { 'single-turn-rag': { k: 20 } } }),
    ]);
    expect(lines).toEqual([
      'the evals ran in different settings (e1: open, e2: closed); each candidate\'s quality and cost is learnt as one, whichever setting a question came from',
      'e2 ran with a budget (maxLlmCalls 2): its runs stopped at it are learnt as the workflows\' answers and costs',
      'single-turn-rag ran with different settings in the evals ({"k":5} in e1; {"k":20} in e2); it is learnt as one workflow',
    ]);
  });
});
