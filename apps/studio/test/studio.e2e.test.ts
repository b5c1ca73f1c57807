import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TraceEvent } from '@multihop/core';
import { main } from '@multihop/runner';
import { sharedDatasetsDir } from '@multihop/testing';
import type { StudioEval, StudioRunSummary, StudioWorkflow } from '@multihop/runner/studio';
import { launchChromium } from './chromium';

// A budget against a hang, not a bound on speed: the replay test has taken 31 s beside the runner's tests in CI.
jest.setTimeout(300_000);

/**
 * The studio end to end: the real `multihop studio` (a child process, as a user starts it),
 * the built web app, and Chromium driving it. Runs use the offline model (a deterministic
 * lexical stand-in), on hotpotqa-train questions.
 */
const studioDir = resolve(__dirname, '..');
const bin = resolve(studioDir, '..', 'runner', 'bin', 'multihop.js');
const work = mkdtempSync(join(tmpdir(), 'multihop-studio-e2e-'));
const db = join(work, 'db');
const evalDir = join(work, 'evals', 'hotpot-train');
const shots = process.env['STUDIO_SCREENSHOTS'];
/** A shared question both live runs answer (hotpotqa-train's first: a comparison of two magazines). */
let questionId = '';

let child: ChildProcess;
let url = '';
let token = '';
let browser: Browser;
let page: Page;
let workflows: StudioWorkflow[] = [];

const api = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${url}${path.replace(/^\//, '')}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

/** The trace of a run as the server streams it (the test's own connection, not the page's). */
async function streamedTrace(runId: string): Promise<TraceEvent[]> {
  const text = await (await fetch(`${url}api/runs/${runId}/events?token=${token}`)).text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('event: trace'))
    .map((block) => JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as TraceEvent);
}

async function shot(name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
}

/** `multihop studio` as a user starts it, in `work`, with `env` on top: the child and the URL it prints. */
async function startStudio(env: Record<string, string> = {}): Promise<{ child: ChildProcess; signed: string }> {
  const started = spawn(process.execPath, [bin, 'studio', '--port', '0', '--db', db], {
    cwd: work,
    // The server runs in a directory of its own, as a user's would: the datasets are named for it.
    env: { ...process.env, MULTIHOP_STUDIO_DIR: join(studioDir, 'dist'), MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), MULTIHOP_MODEL: 'offline', LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  started.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const signed = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`multihop studio printed no URL in 60 s:\n${out}\n${stderr}`)), 60_000);
    started.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /multihop studio: (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1] as string);
      }
    });
    started.on('exit', (code) => reject(new Error(`multihop studio exited with ${code}:\n${stderr}`)));
  });
  return { child: started, signed };
}

async function stopStudio(started: ChildProcess | undefined): Promise<void> {
  if (started && started.exitCode === null) {
    started.kill('SIGINT');
    await new Promise((r) => started.once('exit', r));
  }
}

beforeAll(async () => {
  // The web app is built by this project's build target (test:int depends on it).
  const quiet = { out: () => undefined, err: () => undefined };
  mkdirSync(join(work, 'evals'), { recursive: true });
  const code = await main(['eval', '--workflows', 'par2-rag,opera,single-turn-rag,hera', '--dataset', 'hotpotqa-train', '--limit', '6', '--setting', 'closed', '--out', evalDir, '--db', db], quiet);
  expect(code).toBe(0);
  const evaluated = readFileSync(join(evalDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean);
  questionId = (JSON.parse(evaluated[0] as string) as { questionId: string }).questionId;

  const studio = await startStudio();
  child = studio.child;
  const signed = studio.signed;
  const parsed = new URL(signed);
  token = parsed.searchParams.get('token') ?? '';
  url = `${parsed.origin}/`;
  workflows = await api<StudioWorkflow[]>('/api/workflows');
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(signed);
}, 1_500_000); // a fresh CI machine installs Chromium first, after any other suite's apt-get lets go of the lock

afterAll(async () => {
  await browser?.close();
  await stopStudio(child);
  rmSync(work, { recursive: true, force: true });
});

describe('multihop studio in Chromium', () => {
  it('refuses the API without the token, and the page keeps it out of the address bar', async () => {
    await page.waitForSelector('[data-testid="nav-workflows"]');
    expect(page.url()).not.toContain('token=');
    const statuses = await page.evaluate(async () => {
      const without = await fetch('/api/workflows');
      const wrong = await fetch('/api/workflows', { headers: { authorization: 'Bearer nope' } });
      return [without.status, wrong.status];
    });
    expect(statuses).toEqual([401, 401]);
  });

  it('renders every workflow’s chart with all its nodes, laid out', async () => {
    expect(workflows.length).toBeGreaterThanOrEqual(20);
    for (const workflow of workflows) {
      await page.goto(`${url}#/workflows/${encodeURIComponent(workflow.id)}`);
      await page.waitForSelector(`[data-testid="chart"][data-layout="done"][data-chart-id="${workflow.id}"]`, { timeout: 20_000 });
      const shown = await page.$$eval('[data-testid="chart"] [data-testid="chart-node"]', (nodes) => nodes.map((n) => n.getAttribute('data-node-id')));
      expect({ workflow: workflow.id, nodes: [...shown].sort() }).toEqual({ workflow: workflow.id, nodes: workflow.chart.nodes.map((n) => n.id).sort() });
    }
    await page.goto(`${url}#/workflows/par2-rag`);
    await page.waitForSelector('[data-layout="done"][data-chart-id="par2-rag"]');
    await page.click('[data-testid="chart-node"][data-node-id="esc"]');
    await page.waitForSelector('[data-testid="node-panel"]');
    expect(await page.textContent('[data-testid="node-panel"]')).toContain('par2.esc');
    await shot('studio-chart');
    // The same with the keyboard: every node is named for a screen reader, and Enter on a focused node opens it.
    await page.reload();
    await page.waitForSelector('[data-layout="done"][data-chart-id="par2-rag"]');
    expect(await page.$('[data-testid="node-panel"]')).toBeNull();
    const names = await page.$$eval('.react-flow__node', (nodes) => nodes.map((n) => [n.getAttribute('data-id'), n.getAttribute('aria-label'), n.getAttribute('role')]));
    for (const [id, label, role] of names) expect({ id, named: Boolean(label?.trim()), role }).toEqual({ id, named: true, role: 'button' });
    await page.focus('.react-flow__node[data-id="esc"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="node-panel"]');
    expect(await page.textContent('[data-testid="node-panel"]')).toContain('par2.esc');
  });

  for (const workflow of ['par2-rag', 'opera', 'hera']) {
    it(`runs ${workflow} live on a shared question: nodes light up in exactly the order of the run's trace`, async () => {
      await page.goto(`${url}#/run?workflow=${workflow}`);
      await page.reload();
      await page.waitForSelector(`[data-layout="done"][data-chart-id="${workflow}"]`);
      // The form as a user fills it: the dataset, then the question found by its id.
      await page.selectOption('[data-testid="run-dataset"]', 'hotpotqa-train');
      await page.fill('[data-testid="run-question-search"]', questionId);
      await page.click(`[data-testid="question-option"][data-question-id="${questionId}"]`);
      await page.click('[data-testid="run-start"]');
      await page.waitForSelector('[data-testid="run-status"][data-phase="done"]', { timeout: 60_000 });
      const lit = (await page.getAttribute(`[data-testid="chart"][data-chart-id="${workflow}"]`, 'data-lit-order')) ?? '';
      const runs = await api<StudioRunSummary[]>('/api/runs');
      const run = runs.find((r) => r.workflow === workflow);
      expect(run).toBeDefined();
      const trace = await streamedTrace(run!.runId);
      const entered = trace.filter((e) => e.kind === 'enter').map((e) => e.node);
      expect(entered.length).toBeGreaterThan(2);
      expect(lit.split(',')).toEqual(entered);
      // The edges drawn as taken are the transitions of the trace, guard and all: of two edges
      // joining the same nodes (OPERA's judge → record when [sufficient], and else), only the one taken.
      const drawn = await page.$$eval(`[data-testid="chart"][data-chart-id="${workflow}"] [data-edge][data-taken="true"]`, (els) =>
        els.map((el) => `${el.getAttribute('data-edge')}|${el.getAttribute('data-edge-guard') ?? ''}`),
      );
      const took = new Set(trace.filter((e) => e.kind === 'transition').map((e) => `${String(e.data['from'])}→${String(e.data['to'])}|${typeof e.data['guard'] === 'string' ? e.data['guard'] : ''}`));
      expect([...new Set(drawn)].sort()).toEqual([...took].sort());
      const rows = await page.$$eval('[data-testid="event-row"]', (els) => els.map((el) => Number(el.getAttribute('data-seq'))));
      expect(rows).toEqual(trace.map((e) => e.seq));
      const timing = await page.evaluate(() => {
        const w = window as unknown as { __studioRunClicked?: number; __studioFirstLit?: number };
        return w.__studioFirstLit !== undefined && w.__studioRunClicked !== undefined ? w.__studioFirstLit - w.__studioRunClicked : null;
      });
      // Reported, not asserted: tests never assert wall-clock times.
      process.stderr.write(`studio e2e: ${workflow}: ${Math.round(timing ?? -1)} ms from clicking Run to the first lit node (offline model, corpus ${workflow === 'par2-rag' ? 'opened by this run' : 'already open'})\n`);
      expect(await page.textContent('[data-testid="run-answer"]')).toBeTruthy();
      // The offline model's figures say so beside them (SPEC §8).
      expect(await page.$('[data-testid="run-outcome"] [data-testid="offline-tag"]')).not.toBeNull();
      // The address names the run, and the server's runs are listed beside the form.
      expect(page.url()).toContain(`run=${run!.runId}`);
      await page.waitForSelector(`[data-testid="runs-item"][data-run-id="${run!.runId}"][data-state="done"]`);
      if (workflow === 'hera') {
        // HERA's orchestrator picks a topology per question: drawn as soon as it is decided.
        await page.waitForSelector('[data-testid="topology"][data-diagram="topology"] [data-testid="topology-chart"][data-layout="done"]');
        const topology = trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'topology');
        expect(topology).toBeDefined();
      }
      if (workflow === 'par2-rag') await shot('studio-live-run');
    });
  }

  it('starts no run while a setting holds text that is not a value, and says which', async () => {
    await page.goto(`${url}#/run?workflow=par2-rag`);
    await page.reload();
    await page.waitForSelector('[data-layout="done"][data-chart-id="par2-rag"]');
    await page.selectOption('[data-testid="run-dataset"]', 'hotpotqa-train');
    await page.fill('[data-testid="run-question-search"]', questionId);
    await page.click(`[data-testid="question-option"][data-question-id="${questionId}"]`);
    expect(await page.isEnabled('[data-testid="run-start"]')).toBe(true);
    await page.click('.settings-details > summary');
    await page.fill('[data-testid="setting-hopBudget"]', '');
    // Before, the blank field fell back to the default unsaid and Run stayed enabled.
    expect(await page.isEnabled('[data-testid="run-start"]')).toBe(false);
    expect(await page.textContent('[data-testid="settings-invalid"]')).toContain('hopBudget');
    await page.fill('[data-testid="setting-hopBudget"]', '3');
    expect(await page.isEnabled('[data-testid="run-start"]')).toBe(true);
    expect(await page.$('[data-testid="settings-invalid"]')).toBeNull();
  });

  it('replays a saved trace forwards and backwards with the chart in the same state at each step', async () => {
    const evaluation = await api<StudioEval>(`/api/eval?dir=${encodeURIComponent('evals/hotpot-train')}`);
    const row = evaluation.rows.find((r) => r.workflow === 'par2-rag')!;
    const file = join('evals', 'hotpot-train', row.trace);
    const saved = JSON.parse(readFileSync(join(work, file), 'utf8')) as { trace: TraceEvent[] };
    await page.goto(`${url}#/replay?path=${encodeURIComponent(file)}`);
    await page.waitForSelector('[data-layout="done"][data-chart-id="par2-rag"]');
    const n = saved.trace.length;
    const states = async () => page.$$eval('[data-testid="chart-node"]', (nodes) => nodes.map((x) => `${x.getAttribute('data-node-id')}=${x.getAttribute('data-state')}`).join(' '));
    // It opens at the first step; stepping from there:
    expect(await page.isDisabled('[data-testid="replay-first"]')).toBe(true);
    const forward: string[] = [];
    for (let i = 0; i < n; i++) {
      expect(await page.textContent('[data-testid="replay-position"]')).toContain(`${i + 1} / ${n}`);
      const event = saved.trace[i]!;
      if (event.kind === 'enter') expect(await page.getAttribute(`[data-testid="chart-node"][data-node-id="${event.node}"]`, 'data-state')).toBe('active');
      forward.push(await states());
      if (i < n - 1) await page.click('[data-testid="replay-next"]');
    }
    for (let i = n - 1; i >= 0; i--) {
      expect(await states()).toBe(forward[i]);
      if (i > 0) await page.click('[data-testid="replay-prev"]');
    }
    // An offline run's replay says so in its header.
    expect(await page.$('[data-testid="trace-replay"] .replay-head [data-testid="offline-tag"]')).not.toBeNull();
  });

  it('shows an eval directory as plots: quality against cost with the Pareto front, metrics, breakdowns, comparisons', async () => {
    await page.goto(`${url}#/evals`);
    await page.waitForSelector('[data-testid="eval-item"]');
    const listed = await page.$$eval('[data-testid="eval-item"]', (items) => items.map((i) => i.getAttribute('data-dir')));
    expect(listed).toContain(join('evals', 'hotpot-train'));
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(join('evals', 'hotpot-train'))}`);
    for (const plot of ['plot-pareto', 'plot-metrics', 'plot-breakdown', 'plot-comparisons']) {
      await page.waitForSelector(`[data-testid="${plot}"] svg`, { timeout: 20_000 });
    }
    // The heading says whose figures these are, before any table does.
    expect(await page.textContent('[data-testid="eval-header"] h1')).toBe('hotpotqa-train · offline model');
    const labels = await page.$$eval('[data-testid="plot-pareto"] svg text', (texts) => texts.map((t) => t.textContent));
    for (const workflow of ['par2-rag', 'opera', 'single-turn-rag', 'hera']) expect(labels).toContain(workflow);
    const front = (await page.getAttribute('[data-testid="plot-pareto"]', 'data-front'))?.split(',') ?? [];
    expect(front.length).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(join(evalDir, 'summary.json'), 'utf8')) as StudioEval['summary'];
    // The front is what the summary says: no workflow off it is both cheaper and better than one on it.
    for (const id of front) {
      const a = summary.workflows[id]!;
      for (const [other, b] of Object.entries(summary.workflows)) {
        if (other === id) continue;
        const quality = (s: typeof a) => s.correctness ?? s.em;
        expect(b.tokens <= a.tokens && quality(b) >= quality(a) && (b.tokens < a.tokens || quality(b) > quality(a))).toBe(false);
      }
    }
    await shot('studio-eval');
    await page.click(`[data-testid="question-row"][data-question-id="${questionId}"]`);
    await page.waitForSelector('[data-testid="question-detail"]');
    await page.waitForSelector('[data-testid="side-by-side"] [data-layout="done"]', { timeout: 20_000 });
    // Every block of the offline model's figures is marked, not only the header: the question's table, the questions, each replay.
    for (const where of ['[data-testid="question-detail"] .eval-id', '[data-testid="question-count"]', '[data-testid="side-by-side"] .replay-head']) {
      expect({ where, tagged: (await page.$(`${where} [data-testid="offline-tag"]`)) !== null }).toEqual({ where, tagged: true });
    }
  });

  it('keeps the studio standing on an eval it cannot draw: the server refuses a summary without workflows, the page shows a bad one in place, and an eval whose every run failed says so', async () => {
    const bad = (name: string, summary: unknown) => {
      mkdirSync(join(work, 'evals', name), { recursive: true });
      writeFileSync(join(work, 'evals', name, 'summary.json'), JSON.stringify(summary));
      writeFileSync(join(work, 'evals', name, 'results.jsonl'), '');
      return join('evals', name);
    };
    const empty = bad('bad-empty', {});
    const nullWorkflow = bad('bad-null', { dataset: 'hotpotqa-train', n: 1, workflows: { 'par2-rag': null } });
    const allFailed = bad('all-failed', {
      dataset: 'hotpotqa-train', setting: 'closed', model: 'openai:gpt-x', offline: false, n: 2, offset: 0, created: '2026-11-28T09:12:18.875Z', settings: {},
      workflows: {}, comparisons: [], breakdown: { hops: [], type: [] },
      failed: { runs: 4, retryable: 4, codes: { PROVIDER: 4 }, workflows: { direct: 2, 'single-turn-rag': 2 }, tokens: 0 },
    });
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(empty)}`);
    await page.waitForSelector('.eval-main .eval-error');
    expect(await page.textContent('.eval-main .eval-error')).toContain('not an eval summary');
    // A summary the server passes but the page cannot draw: the error in the eval pane, the list and the top bar still there.
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(nullWorkflow)}`);
    await page.waitForSelector('[data-testid="render-error"]');
    expect(await page.textContent('[data-testid="render-error"]')).toContain(`Could not show the eval ${nullWorkflow}`);
    expect(await page.$('[data-testid="nav-run"]')).not.toBeNull();
    expect(await page.$(`[data-testid="eval-item"][data-dir="${join('evals', 'hotpot-train')}"]`)).not.toBeNull();
    // The next eval opened in the same tab renders.
    await page.click(`[data-testid="eval-item"][data-dir="${join('evals', 'hotpot-train')}"]`);
    await page.waitForSelector('[data-testid="plot-pareto"] svg', { timeout: 20_000 });
    expect(await page.$('[data-testid="render-error"]')).toBeNull();
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(allFailed)}`);
    await page.waitForSelector('[data-testid="eval-no-runs"]');
    expect(await page.textContent('[data-testid="eval-no-runs"]')).toBe('No run succeeded: 4 failed (PROVIDER 4), so there are no figures; a re-run of the same command runs them again.');
    expect(await page.$('[data-testid="plot-pareto"]')).toBeNull();
  });

  it('comes back to a run left while it ran: the Run link re-opens its stream from the first event, and the runs list stops a run', async () => {
    // A studio whose offline model takes a while to answer, so the run is still going when the page is left.
    const slow = await startStudio({ MULTIHOP_OFFLINE_LATENCY_MS: '800' });
    const view = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      const origin = new URL(slow.signed).origin;
      const slowToken = new URL(slow.signed).searchParams.get('token') ?? '';
      await view.goto(slow.signed);
      // Signed in once the page has taken the token off the address (before that, another address would lose it).
      await view.waitForURL((address) => !address.search.includes('token='));
      await view.goto(`${origin}/#/run?workflow=par2-rag`);
      await view.waitForSelector('[data-layout="done"][data-chart-id="par2-rag"]');
      await view.selectOption('[data-testid="run-dataset"]', 'hotpotqa-train');
      await view.fill('[data-testid="run-question-search"]', questionId);
      await view.click(`[data-testid="question-option"][data-question-id="${questionId}"]`);
      await view.click('[data-testid="run-start"]');
      await view.waitForSelector('[data-testid="run-status"][data-phase="running"]', { timeout: 60_000 });
      await view.waitForSelector('[data-testid="event-row"]', { timeout: 60_000 });
      const runId = new URLSearchParams(view.url().split('?')[1] ?? '').get('run') ?? '';
      expect(runId).not.toBe('');
      await view.click('[data-testid="nav-workflows"]');
      await view.waitForSelector('.page-workflows');
      const listed = (await (await fetch(`${origin}/api/runs`, { headers: { authorization: `Bearer ${slowToken}` } })).json()) as StudioRunSummary[];
      expect(listed.find((r) => r.runId === runId)?.state).toBe('running');
      await view.click('[data-testid="nav-run"]');
      await view.waitForURL((address) => address.hash.includes(`run=${runId}`));
      await view.waitForSelector('[data-testid="run-status"][data-phase="done"]', { timeout: 120_000 });
      // Every event from the first, once each, as the server streams them; the chart lit in the trace's order.
      const text = await (await fetch(`${origin}/api/runs/${runId}/events?token=${slowToken}`)).text();
      const trace = text.split('\n\n').filter((b) => b.includes('event: trace')).map((b) => JSON.parse(/^data: (.*)$/m.exec(b)?.[1] ?? 'null') as TraceEvent);
      const rows = await view.$$eval('[data-testid="event-row"]', (els) => els.map((el) => Number(el.getAttribute('data-seq'))));
      expect(rows).toEqual(trace.map((e) => e.seq));
      const lit = (await view.getAttribute('[data-testid="chart"][data-chart-id="par2-rag"]', 'data-lit-order')) ?? '';
      expect(lit.split(',')).toEqual(trace.filter((e) => e.kind === 'enter').map((e) => e.node));

      // Another run, stopped from the list.
      await view.selectOption('[data-testid="run-dataset"]', 'hotpotqa-train');
      await view.fill('[data-testid="run-question-search"]', questionId);
      await view.click(`[data-testid="question-option"][data-question-id="${questionId}"]`);
      await view.click('[data-testid="run-start"]');
      await view.waitForURL((address) => /run=/.test(address.hash) && !address.hash.includes(`run=${runId}`));
      await view.waitForSelector('[data-testid="run-status"][data-phase="running"]', { timeout: 60_000 });
      const second = new URLSearchParams(view.url().split('?')[1] ?? '').get('run') ?? '';
      expect(second).not.toBe(runId);
      await view.click(`[data-testid="runs-item"][data-run-id="${second}"] [data-testid="runs-item-stop"]`);
      await view.waitForSelector('[data-testid="run-status"][data-phase="done"]', { timeout: 60_000 });
      expect(await view.getAttribute('[data-testid="run-outcome"]', 'data-result-status')).toBe('error');
      expect(await view.textContent('[data-testid="run-outcome"]')).toContain('aborted');
      await view.waitForSelector(`[data-testid="runs-item"][data-run-id="${second}"][data-state="done"]`, { timeout: 20_000 });
    } finally {
      await view.close();
      await stopStudio(slow.child);
    }
  });

  it('says what summary.md says before the figures: an incomplete eval, its budget, its failed runs and its warnings', async () => {
    // The eval above as a stopped, budgeted one with two failed runs would have summarized it (the shapes summarize writes).
    const stopped = join(work, 'evals', 'hotpot-stopped');
    cpSync(evalDir, stopped, { recursive: true });
    const summary = JSON.parse(readFileSync(join(stopped, 'summary.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(stopped, 'summary.json'),
      JSON.stringify({
        ...summary,
        warnings: ["router was trained on evals of openai:gpt-4o-mini, and this eval runs offline: its predictions of each candidate's quality and cost are the other model's"],
        budget: { maxLlmCalls: 4 },
        failed: { runs: 2, retryable: 1, scored_as_wrong: 1, codes: { MODEL_OUTPUT: 1, PROVIDER: 1 }, workflows: { opera: 1, hera: 1 }, tokens: 321 },
        incomplete: { stopped: true, questions_run: 3, runs: { 'par2-rag': 3, opera: 3, 'single-turn-rag': 3, hera: 2 } },
      }),
    );
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(join('evals', 'hotpot-stopped'))}`);
    await page.waitForSelector('[data-testid="eval-incomplete"]', { timeout: 20_000 });
    expect(await page.textContent('[data-testid="eval-incomplete"]')).toContain('stopped (Ctrl-C) before every pair ran: 3 of 6 questions ran (runs per workflow: par2-rag 3, opera 3, single-turn-rag 3, hera 2)');
    expect(await page.textContent('[data-testid="eval-warning"]')).toContain('router was trained on evals of openai:gpt-4o-mini');
    expect(await page.textContent('[data-field="budget"]')).toContain('4 LLM calls per run');
    expect(await page.textContent('[data-field="failed"]')).toBe(
      "2 (MODEL_OUTPUT 1, PROVIDER 1); 1 the workflow's own failure, scored as wrong answers with their tokens; 1 left out of every figure, having spent 321 tokens counted in none; 1 run again by a re-run of the same command",
    );
  });

  it('draws a router eval: the router beside each candidate, the Pareto front, the oracle as a star and the router across λ, in the studio and in the report', async () => {
    // A router over three baselines, trained on an eval of 24 questions, then evaluated beside them on 6 it never saw.
    const quiet = { out: () => undefined, err: () => undefined };
    const candidates = 'direct,single-turn-rag,ircot';
    const training = join(work, 'router-training');
    const file = join(work, 'router.json');
    const routed = join('evals', 'router');
    expect(await main(['eval', '--workflows', candidates, '--dataset', 'hotpotqa-train', '--limit', '24', '--setting', 'closed', '--out', training, '--db', db], quiet)).toBe(0);
    expect(await main(['train', 'router', '--from', training, '--out', file], quiet)).toBe(0);
    expect(await main(['eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '24', '--limit', '6', '--setting', 'closed', '--out', join(work, routed), '--db', db, '--set', `router.file=${file}`], quiet)).toBe(0);
    const summary = JSON.parse(readFileSync(join(work, routed, 'summary.json'), 'utf8')) as StudioEval['summary'] & { oracle: { correctness: number; tokens: number } };
    const curve = [...summary.router_curve!.points].sort((a, b) => a.tokens - b.tokens || a.quality - b.quality).map((p) => `${p.lambda}:${p.tokens},${p.quality}`).join(' ');

    const drawn = async (view: Page) => {
      // The plot of this eval, labelled: under load the page can show the plot's frame (or the eval shown before) a moment first.
      await view.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="plot-pareto"] svg text')).some((t) => t.textContent === 'router across λ'), undefined, { timeout: 20_000 });
      const labels = await view.$$eval('[data-testid="plot-pareto"] svg text', (texts) => texts.map((t) => t.textContent));
      for (const workflow of ['router', 'direct', 'single-turn-rag', 'ircot', 'oracle (hindsight)', 'router across λ']) expect(labels).toContain(workflow);
      const front = (await view.getAttribute('[data-testid="plot-pareto"]', 'data-front'))?.split(',') ?? [];
      expect(front.length).toBeGreaterThan(0);
      // The star sits at the oracle's tokens and correctness from the summary.
      expect(await view.getAttribute('[data-testid="plot-pareto"]', 'data-oracle')).toBe(`${summary.oracle.tokens},${summary.oracle.correctness}`);
      // The router's curve across λ, each point at the summary's replayed tokens and correctness.
      expect(await view.getAttribute('[data-testid="plot-pareto"]', 'data-router-curve')).toBe(curve);
    };
    await page.goto(`${url}#/evals?dir=${encodeURIComponent(routed)}`);
    await drawn(page);
    await shot('studio-router-eval');

    const out = join(work, 'router-report.html');
    process.env['MULTIHOP_STUDIO_DIR'] = join(studioDir, 'dist');
    const code = await main(['report', join(work, routed), '--out', out], quiet);
    delete process.env['MULTIHOP_STUDIO_DIR'];
    expect(code).toBe(0);
    const offline = await browser.newPage();
    await offline.goto(`file://${out}`);
    await drawn(offline);
    await offline.close();
  }, 300_000);

  it('writes the same eval view as one HTML file that opens from disk with no server, and replays its compressed traces there', async () => {
    const out = join(work, 'report.html');
    process.env['MULTIHOP_STUDIO_DIR'] = join(studioDir, 'dist');
    let said = '';
    const code = await main(['report', evalDir, '--out', out], { out: () => undefined, err: (line) => void (said += `${line}\n`) });
    delete process.env['MULTIHOP_STUDIO_DIR'];
    expect(code).toBe(0);
    // What it says it wrote: the file's size, the runs, the traces and what they come to uncompressed.
    const evaluatedRows = readFileSync(join(evalDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { workflow: string; trace: string });
    // Sizes as it prints them: KB under a megabyte (these 24 traces come to some 400 KB), MB above.
    const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
    const traceBytes = evaluatedRows.reduce((n, row) => n + Buffer.byteLength(JSON.stringify(JSON.parse(readFileSync(join(evalDir, row.trace), 'utf8')))), 0);
    const charts = new Set(evaluatedRows.map((row) => row.workflow)).size;
    expect(said).toBe(`report: wrote ${out} (${size(statSync(out).size)}: ${evaluatedRows.length} runs, ${evaluatedRows.length} traces compressed from ${size(traceBytes)}, ${charts} charts); open it in a browser, no server needed\n`);
    const offline = await browser.newPage();
    const requests: string[] = [];
    offline.on('request', (request) => requests.push(request.url()));
    await offline.goto(`file://${out}`);
    for (const plot of ['plot-pareto', 'plot-metrics']) await offline.waitForSelector(`[data-testid="${plot}"] svg`, { timeout: 20_000 });
    // A question's runs side by side: each trace is inflated in the page from the report's gzip.
    await offline.click(`[data-testid="question-row"][data-question-id="${questionId}"]`);
    await offline.waitForSelector('[data-testid="side-by-side"] [data-layout="done"]', { timeout: 20_000 });
    const rows = readFileSync(join(evalDir, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { workflow: string; questionId: string; trace: string })
      .filter((row) => row.questionId === questionId);
    const columns = await offline.$$eval('.eval-replay-column', (cols) => cols.map((c) => [c.getAttribute('data-workflow'), c.querySelector('[data-testid="replay-position"]')?.textContent ?? c.textContent]));
    expect(columns.length).toBeGreaterThan(0);
    for (const [workflow, position] of columns) {
      const row = rows.find((r) => r.workflow === workflow)!;
      const events = (JSON.parse(readFileSync(join(evalDir, row.trace), 'utf8')) as { trace: unknown[] }).trace.length;
      expect({ workflow, position: position?.replace(/\s+/g, ' ').trim() }).toEqual({ workflow, position: `${events} / ${events}` }); // a compact replay opens at its last event
    }
    expect(requests.filter((r) => !r.startsWith('file://') && !r.startsWith('data:'))).toEqual([]);
    await offline.close();

    // The same report with its trace packs damaged: each run's column names its trace and says so.
    const html = readFileSync(out, 'utf8');
    const embedded = /window\.__MULTIHOP_REPORT__ = (.*);<\/script>/.exec(html)![1]!;
    const report = JSON.parse(embedded) as { tracePacks: string[] };
    report.tracePacks = report.tracePacks.map(() => 'bm90IGd6aXA=');
    const damaged = join(work, 'damaged-report.html');
    writeFileSync(damaged, html.replace(embedded, () => JSON.stringify(report).replace(/</g, '\\u003c')));
    const broken = await browser.newPage();
    await broken.goto(`file://${damaged}`);
    await broken.click(`[data-testid="question-row"][data-question-id="${questionId}"]`);
    await broken.waitForSelector('.eval-replay-column .eval-error', { timeout: 20_000 });
    const errors = await broken.$$eval('.eval-replay-column', (cols) => cols.map((c) => [c.getAttribute('data-workflow'), c.querySelector('.eval-error')?.textContent ?? '']));
    expect(errors.length).toBe(columns.length);
    for (const [workflow, text] of errors) {
      const row = rows.find((r) => r.workflow === workflow)!;
      expect(text).toContain(`Could not load ${row.trace}: the report's traces of this question are damaged (they do not inflate as gzip JSON: `);
    }
    await broken.close();
  });
});

