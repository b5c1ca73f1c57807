import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inPart, loadDataset } from '@multihop/datasets';
import { sharedDatasetsDir } from '@multihop/testing';
import { cli } from '../test/cli';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-rollouts-cli-'));
const db = join(dir, 'db');

describe('multihop rollouts for a multi-agent method', () => {
  it('writes MMOA-RAG rollouts with episode ids and shared returns, and SFT warm-start examples per agent', async () => {
    const file = join(dir, 'mmoa.jsonl');
    const sft = join(dir, 'sft');
    const { code, out } = await cli('rollouts', '--workflow', 'mmoa-rag', '--dataset', 'hotpotqa-train', '--group', '2', '--limit', '6', '--out', file, '--sft', sft, '--db', db);
    expect(code).toBe(0);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { episode_id: string; shared_return: number; reward: number; role: string });
    // Every agent turn of one episode carries the episode's id and the same shared return.
    const byEpisode = new Map<string, Set<number>>();
    for (const r of records) byEpisode.set(r.episode_id, (byEpisode.get(r.episode_id) ?? new Set()).add(r.shared_return));
    expect(byEpisode.size).toBeGreaterThanOrEqual(6);
    for (const returns of byEpisode.values()) expect(returns.size).toBe(1);
    expect(out).toMatch(/wrote warm-start examples to .*sft: /);
    for (const role of new Set(records.map((r) => r.role))) {
      const lines = readFileSync(join(sft, `${role}.jsonl`), 'utf8').split('\n').filter(Boolean);
      for (const line of lines) expect((JSON.parse(line) as { messages: Array<{ role: string }> }).messages.at(-1)?.role).toBe('assistant');
    }
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-dev', '--group', '2', '--limit', '1', '--out', join(dir, 'o.jsonl'), '--sft', sft, '--db', db)).toMatchObject({
      code: 2,
      err: expect.stringContaining("--sft: opera's trainer offers no warm-start export"),
    });
  });

  it('--resume adds only to a file of the same method, group size and dataset, and runs again a question a kill tore', async () => {
    const file = join(dir, 'opera-resume.jsonl');
    const args = (...extra: string[]) => ['rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '2', '--limit', '2', '--out', file, '--db', db, ...extra];
    expect((await cli(...args())).code).toBe(0);
    const whole = readFileSync(file, 'utf8');
    const lines = whole.trim().split('\n');
    const questions = [...new Set(lines.map((l) => (JSON.parse(l) as { question_id: string }).question_id))];
    expect(questions).toHaveLength(2);
    // Another method, another G, another dataset: refused by name, the file untouched.
    expect(await cli('rollouts', '--workflow', 'mao-arag', '--dataset', 'musique-train', '--group', '2', '--limit', '3', '--out', file, '--db', db, '--resume')).toMatchObject({ code: 2, err: expect.stringMatching(/holds rollouts of the role opera-\S+ .*which this method's trainer has not/) });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'musique-train', '--group', '3', '--limit', '2', '--out', file, '--db', db, '--resume')).toMatchObject({ code: 2, err: expect.stringContaining('holds groups of 2 candidates, and this run asks --group 3') });
    expect(await cli('rollouts', '--workflow', 'opera', '--dataset', 'hotpotqa-train', '--group', '2', '--limit', '2', '--out', file, '--db', db, '--resume')).toMatchObject({ code: 2, err: expect.stringContaining('holds rollouts of musique-train (question') });
    expect(readFileSync(file, 'utf8')).toBe(whole);
    // A write cut short in the second question's lines: that question is taken out and runs again whole.
    const second = lines.findIndex((l) => (JSON.parse(l) as { question_id: string }).question_id === questions[1]);
    const cut = lines.length - 1;
    expect(cut).toBeGreaterThan(second);
    require('node:fs').writeFileSync(file, `${lines.slice(0, cut).join('\n')}\n${lines[cut]!.slice(0, 60)}`);
    const resumed = await cli(...args('--resume'));
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain('resuming');
    expect(resumed.err).toContain('1 of 2 questions already in it');
    const after = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { question_id: string; group_id: string; sample: number });
    expect(after).toHaveLength(lines.length);
    for (const q of questions) {
      const groups = new Map<string, Set<number>>();
      for (const r of after.filter((x) => x.question_id === q)) groups.set(r.group_id, (groups.get(r.group_id) ?? new Set()).add(r.sample));
      for (const samples of groups.values()) expect(samples.size).toBe(2);
    }
  });

  it('counts groups, not the later planning turns of one sample, in its last line (MAO-ARAG)', async () => {
    const file = join(dir, 'mao.jsonl');
    const { code, out } = await cli('rollouts', '--workflow', 'mao-arag', '--dataset', 'musique-train', '--group', '2', '--limit', '2', '--out', file, '--db', db);
    expect(code).toBe(0);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { group_id: string });
    const groups = new Set(records.map((r) => r.group_id).filter((g) => !/\/sample-\d+\//.test(g)));
    expect(groups.size).toBe(2);
    expect(out).toContain(`stage 1 mao-arag-planner ${groups.size} groups`);
  });

  it('takes --offset, --limit and --part as eval does, so rollouts can be drawn from a training part only', async () => {
    const file = join(dir, 'parted.jsonl');
    const { code } = await cli('rollouts', '--workflow', 'mmoa-rag', '--dataset', 'hotpotqa-train', '--group', '2', '--offset', '3', '--limit', '8', '--part', '1/2', '--out', file, '--db', db);
    expect(code).toBe(0);
    const written = new Set(readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { question_id: string }).question_id));
    const { questions } = await loadDataset('hotpotqa-train');
    const expected = questions.slice(3, 11).map((q) => q.id).filter((id) => inPart(id, { part: 1, of: 2 }));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(8);
    expect([...written].sort()).toEqual([...expected].sort());
  });
});
