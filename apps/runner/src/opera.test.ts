import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chart, RunResult } from '@multihop/core';
import { sharedDatasetsDir } from '@multihop/testing';
import { cli } from '../test/cli';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-opera-cli-'));
const db = join(dir, 'db');


describe('OPERA in the multihop CLI', () => {
  it('lists OPERA and its two ablations as XState workflows', async () => {
    const { out } = await cli('workflows');
    for (const id of ['opera', 'opera-no-plan', 'opera-no-rewrite']) expect(out).toMatch(new RegExp(`^${id}\\s+xstate`, 'm'));
  });

  it('prints the chart read off the machine, with every state and guard', async () => {
    const { code, out } = await cli('chart', 'opera', '--format', 'mermaid');
    expect(code).toBe(0);
    expect(out).toMatch(/^flowchart TD/);
    for (const guard of ['planValid', 'repairLeft', 'allSubGoalsDone', 'stepsLeft', 'dependenciesResolved', 'sufficient', 'rewritesLeft']) expect(out).toContain(`[${guard}]`);
    const chart = JSON.parse((await cli('chart', 'opera', '--format', 'json')).out) as Chart;
    expect(chart.engine).toBe('xstate');
    expect(chart.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['plan', 'resolve', 'retrieve', 'analyze', 'judge', 'rewrite', 'record', 'lastStep']));
    // The paper's form answers with the last step; the synthesis call is a setting, and the chart follows it.
    expect(chart.nodes.map((n) => n.id)).not.toContain('synthesize');
    for (const guard of ['noNewSentence', 'queryRepeated']) expect(out).toContain(`[${guard}]`);
    const withSynthesis = JSON.parse((await cli('chart', 'opera', '--format', 'json', '--set', 'opera.synthesis=llm')).out) as Chart;
    expect(withSynthesis.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['synthesize']));
    expect(withSynthesis.nodes.map((n) => n.id)).not.toContain('lastStep');
  });

  // The offline model runs on MuSiQue train questions here (musique/train-100.json), where its rules are developed.
  it('runs OPERA on a MuSiQue question with placeholder substitution in the trace', async () => {
    // 2hop__334380_326459: "What county shares a border with the county where Black Hawk Township is located?"
    const { code, out } = await cli('run', '--workflow', 'opera', '--dataset', 'musique-train', '--id', '2hop__334380_326459', '--db', db, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as RunResult;
    const placeholders = result.trace.filter((e) => e.data['decision'] === 'placeholders');
    expect(placeholders.map((e) => e.data['subGoal'])).toEqual(['What is the county where Black Hawk Township is located?', expect.not.stringContaining('[county from step 1]')]);
  });

  it('writes MAPGRPO rollouts: G candidates per question and role, with rewards and advantages', async () => {
    const file = join(dir, 'rollouts.jsonl');
    const { code, out, err } = await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '3', '--limit', '2', '--out', file, '--db', db);
    expect(code).toBe(0);
    expect(err).toContain('they are not a policy');
    expect(out).toMatch(/wrote \d+ candidates .*stage 1 opera-plan 2 groups/);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l['role'] === 'opera-plan')).toHaveLength(6);
    expect(Object.keys(lines[0]!)).toEqual(expect.arrayContaining(['group_id', 'role', 'stage', 'prompt', 'completion', 'reward', 'reward_components', 'advantage', 'reward_model']));
    const byGroup = new Map<string, number>();
    for (const l of lines) byGroup.set(l['group_id'] as string, (byGroup.get(l['group_id'] as string) ?? 0) + (l['advantage'] as number));
    for (const sum of byGroup.values()) expect(Math.abs(sum)).toBeLessThan(1e-5);
  });

  it('says what is wrong with a rollouts command', async () => {
    expect(await cli('rollouts', '--workflow', 'par2-rag', '--dataset', 'musique-train', '--group', '4', '--out', 'x.jsonl')).toMatchObject({ code: 2, err: expect.stringMatching(/rollouts are defined for methods that train their agents: (.*, )?opera \(MAPGRPO\)/) });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '1', '--out', 'x.jsonl')).toMatchObject({ code: 2, err: expect.stringContaining('--group must be an integer of at least 2') });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '4')).toMatchObject({ code: 2, err: expect.stringContaining('rollouts needs --out') });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '4', '--temperature', '3', '--out', 'x.jsonl')).toMatchObject({ code: 2, err: expect.stringContaining('--temperature must be a number from 0 to 2, got 3') });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '4', '--temperature', 'hot', '--out', 'x.jsonl')).toMatchObject({ code: 2, err: expect.stringContaining('--temperature must be a number, got "hot"') });
  });
});
