import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreAnswer } from '@multihop/metrics';
import { sharedDatasetsDir } from '@multihop/testing';
import type { ResultRow } from './eval/ResultsLog';
import type { Summary } from './eval/summarize';

// The real CLI in a child process, as a user runs it: the bin script from source, LanceDB on disk,
// the offline model, the shared HotpotQA dev sample.
const bin = join(__dirname, '..', 'bin', 'multihop.js');
const env = { ...process.env, MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' };
const db = mkdtempSync(join(tmpdir(), 'multihop-eval-db-'));

/** The file's complete lines (each ended by a newline): one a running eval is still writing is not read. */
function lines(file: string): ResultRow[] {
  return readFileSync(file, 'utf8').split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
}

function runEval(out: string, ...extra: string[]) {
  return spawnSync(process.execPath, [bin, 'eval', '--dataset', 'hotpotqa-dev', '--db', db, '--out', out, ...extra], { env, encoding: 'utf8', timeout: 300_000 });
}

describe('multihop eval', () => {
  it('writes results.jsonl, traces, summary.json and summary.md for every question × workflow', () => {
    const out = mkdtempSync(join(tmpdir(), 'multihop-eval-'));
    const done = runEval(out, '--workflows', 'single-turn-rag,direct', '--limit', '6', '--concurrency', '3');
    expect(done.status).toBe(0);
    const rows = lines(join(out, 'results.jsonl'));
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => `${r.workflow}/${r.questionId}`)).size).toBe(12);
    for (const row of rows) {
      expect(existsSync(join(out, row.trace))).toBe(true);
      // The line's metrics are the metrics of its own prediction against its own gold.
      const score = scoreAnswer(row.prediction, row.gold);
      expect([row.metrics.em, row.metrics.f1, row.metrics.acc]).toEqual([score.em, score.f1, score.accuracy]);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(summary).toMatchObject({ dataset: 'hotpotqa-dev', n: 6, offline: true });
    expect(summary.model).toContain('offline model');
    const rag = summary.workflows['single-turn-rag']!;
    for (const key of ['em', 'f1', 'acc', 'recall_at_5', 'ndcg_at_5', 'all_pass'] as const) {
      expect(rag[key]).toBeGreaterThanOrEqual(0);
      expect(rag[key]).toBeLessThanOrEqual(1);
    }
    expect(rag.recall_at_5).toBeGreaterThan(0);
    expect(rag.em_ci95[0]).toBeLessThanOrEqual(rag.em);
    expect(rag.em_ci95[1]).toBeGreaterThanOrEqual(rag.em);
    expect(rag.llm_calls).toBe(1);
    // direct searches nothing by design (its manifest entry's searches: false): no retrieval scores, not zeros.
    expect(summary.workflows['direct']).toMatchObject({ recall_at_5: null, ndcg_at_5: null, all_pass: null });
    // Open by default: one shared corpus of the whole file's paragraphs, and it says so.
    expect(summary.corpus).toMatchObject({ setting: 'open', name: 'hotpotqa-dev-open' });
    expect(summary.corpus!.passages).toBeGreaterThan(4000);
    // Every answer judged once, the judge labelled and its tokens kept apart.
    const verdicts = readFileSync(join(out, 'judgements.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { correct: number | null; judge: string; workflow: string });
    expect(verdicts).toHaveLength(12);
    expect(verdicts.every((v) => v.judge === 'offline' && (v.correct === 0 || v.correct === 1))).toBe(true);
    expect(rag.correctness).toBe(verdicts.filter((v) => v.workflow === 'single-turn-rag' && v.correct === 1).length / 6);
    expect(rag.correctness_ci95).not.toBeNull();
    expect(summary.judge).toMatchObject({ model: 'offline', offline: true, errors: 0 });
    expect(summary.judge!.calls + verdicts.filter((v) => v.correct === 0).length).toBeGreaterThanOrEqual(12);
    expect(summary.comparisons.map((c) => c.metric)).toEqual(['correctness', 'em', 'tokens']);
    // Nothing failed, nothing missing: no failed runs counted, not marked incomplete.
    expect(summary.failed).toEqual({ runs: 0, retryable: 0, codes: {}, workflows: {}, tokens: 0 });
    expect(summary.incomplete).toBeUndefined();
    expect(rag).toMatchObject({ n: 6, failed: 0 });
    expect(summary.breakdown.hops.map((c) => [c.group, c.workflow, c.n])).toEqual([['2', 'single-turn-rag', 6], ['2', 'direct', 6]]);
    expect(summary.settings['single-turn-rag']).toEqual({ k: 5 });
    const markdown = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(markdown).toContain('these are the offline model’s figures');
    expect(markdown).toContain('correctness here is the offline model’s lexical judgement');
    // A second run has nothing left to run or judge.
    const again = runEval(out, '--workflows', 'single-turn-rag,direct', '--limit', '6');
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('12 of 12 pairs already in');
    expect(again.stderr).not.toContain('judging');
    expect(again.stderr).not.toContain('summary replaced');
    expect(done.stdout).toContain('| single-turn-rag | 6 |');
    // Another selection into the same directory reuses its pairs, and says whose summary it replaces.
    const fewer = runEval(out, '--workflows', 'direct', '--limit', '4');
    expect(fewer.status).toBe(0);
    expect(fewer.stderr).toContain('4 of 4 pairs already in');
    expect(fewer.stderr).toContain('eval: the summary replaced was of another selection (single-turn-rag, direct on 6 questions); its pairs are kept here');
  });

  it('resumes after being killed half-way without losing or duplicating lines', async () => {
    const out = mkdtempSync(join(tmpdir(), 'multihop-eval-kill-'));
    const args = ['--workflows', 'par2-rag,ircot', '--limit', '10', '--concurrency', '1'];
    const child = spawn(process.execPath, [bin, 'eval', '--dataset', 'hotpotqa-dev', '--db', db, '--out', out, ...args], { env, stdio: 'ignore' });
    const results = join(out, 'results.jsonl');
    const deadline = Date.now() + 120_000;
    while ((!existsSync(results) || lines(results).length < 4) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // What the resume keeps: the lines the kill left whole (a fatal signal can cut a long line's write).
    const written = readFileSync(results, 'utf8');
    const before = written.slice(0, written.lastIndexOf('\n') + 1);
    const finishedBefore = before.split('\n').filter(Boolean).length;
    expect(finishedBefore).toBeGreaterThanOrEqual(4);
    expect(finishedBefore).toBeLessThan(20);
    // A kill can also land mid-line: the resume must drop the torn tail and run that pair again.
    appendFileSync(results, '{"workflow":"par2-rag","questionId":"torn');

    const resumed = runEval(out, ...args);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`${finishedBefore} of 20 pairs already in`));
    const after = readFileSync(results, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const rows = lines(results);
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => `${r.workflow}/${r.questionId}`)).size).toBe(20);
  });

  it('sweeps a setting into one summary with a row per value, and refuses a value the workflow’s schema rejects', () => {
    const out = mkdtempSync(join(tmpdir(), 'multihop-sweep-'));
    const sweep = (...extra: string[]) =>
      spawnSync(process.execPath, [bin, 'sweep', '--workflow', 'par2-rag', '--dataset', 'musique-dev', '--limit', '3', '--db', db, '--out', out, ...extra], { env, encoding: 'utf8', timeout: 300_000 });
    expect(sweep('--param', 'hopBudget=0,2').stderr).toMatch(/--param hopBudget=0: par2-rag\.hopBudget = 0 is not valid/);
    const done = sweep('--param', 'hopBudget=1,3', '--set', 'par2-rag.subQueries=3');
    expect(done.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(Object.keys(summary.workflows)).toEqual(['par2-rag[hopBudget=1]', 'par2-rag[hopBudget=3]']);
    expect(summary.sweep).toEqual({ workflow: 'par2-rag', params: { hopBudget: [1, 3] }, rows: { 'par2-rag[hopBudget=1]': { hopBudget: 1 }, 'par2-rag[hopBudget=3]': { hopBudget: 3 } } });
    expect(summary.settings['par2-rag[hopBudget=3]']).toMatchObject({ hopBudget: 3, subQueries: 3 });
    // The setting reached the workflow: each trace records it, and hop budget 1 never runs a second chain hop.
    const rows = lines(join(out, 'results.jsonl'));
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      const trace = JSON.parse(readFileSync(join(out, row.trace), 'utf8')) as { settings: { hopBudget: number }; data: { hops: unknown[] } };
      expect(trace.settings.hopBudget).toBe(row.workflow.endsWith('=1]') ? 1 : 3);
      expect(trace.data.hops.length).toBeLessThanOrEqual(trace.settings.hopBudget);
    }
    expect(done.stdout).toMatch(/## Sweep of par2-rag: hopBudget\n\n\| hopBudget \| n \|/);
    expect(summary.breakdown.hops.length).toBeGreaterThan(0);
  });

  it("writes a sweep's report with a chart for each row, found from each trace (the rows share a workflow id)", async () => {
    const out = mkdtempSync(join(tmpdir(), 'multihop-sweep-report-'));
    const done = spawnSync(process.execPath, [bin, 'sweep', '--workflow', 'opera', '--param', 'synthesis=last-step,llm', '--dataset', 'musique-dev', '--limit', '2', '--db', db, '--out', out], { env, encoding: 'utf8', timeout: 300_000 });
    expect(done.status).toBe(0);
    // A stand-in for the studio's built page: the report inlines it; the data is what is checked.
    const assets = mkdtempSync(join(tmpdir(), 'multihop-assets-'));
    require('node:fs').mkdirSync(join(assets, 'assets'));
    require('node:fs').writeFileSync(join(assets, 'index.html'), '<!doctype html><script type="module" src="./assets/studio.js"></script>');
    require('node:fs').writeFileSync(join(assets, 'assets', 'studio.js'), '');
    const { buildReport } = require('./studio/report') as typeof import('./studio/report');
    const { report, unchartable } = await buildReport(assets, out);
    expect(unchartable).toEqual([]);
    expect(Object.keys(report.charts).sort()).toEqual(['opera[synthesis=last-step]', 'opera[synthesis=llm]']);
    // Each row's chart is its own settings': the llm synthesis draws its synthesize node, the paper's form does not.
    expect(report.charts['opera[synthesis=llm]']!.nodes.some((n) => n.id === 'synthesize')).toBe(true);
    expect(report.charts['opera[synthesis=last-step]']!.nodes.some((n) => n.id === 'synthesize')).toBe(false);
    const rows = lines(join(out, 'results.jsonl'));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(report.traceCharts?.[row.trace]).toBe(row.workflow);
  });

  it('refuses to mix results of another model into an output directory', () => {
    const out = mkdtempSync(join(tmpdir(), 'multihop-eval-mix-'));
    expect(runEval(out, '--workflows', 'direct', '--limit', '2').status).toBe(0);
    const other = spawnSync(
      process.execPath,
      [bin, 'eval', '--dataset', 'hotpotqa-dev', '--db', db, '--out', out, '--workflows', 'direct', '--limit', '2', '--model', 'openai:gpt-4o-mini'],
      { env: { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, encoding: 'utf8' },
    );
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('this directory holds results for model "offline", not "openai:gpt-4o-mini"');
  });
});
