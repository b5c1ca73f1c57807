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

beforeAll(async () => {
  // The web app is built by this project's build target (test:int depends on it).
  const quiet = { out: () => undefined, err: () => undefined };
  mkdirSync(join(work, 'evals'), { recursive: true });
  const code = await main(['eval', '--workflows', 'par2-rag,opera,single-turn-rag,hera', '--dataset', 'hotpotqa-train', '--limit', '6', '--setting', 'closed', '--out', evalDir, '--db', db], quiet);
  expect(code).toBe(0);
  const evaluated = readFileSync(join(evalDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean);
  questionId = (JSON.parse(evaluated[0] as string) as { questionId: string }).questionId;

  child = spawn(process.execPath, [bin, 'studio', '--port', '0', '--db', db], {
    cwd: work,
    // The server runs in a directory of its own, as a user's would: the datasets are named for it.
    env: { ...process.env, MULTIHOP_STUDIO_DIR: join(studioDir, 'dist'), MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), MULTIHOP_MODEL: 'offline', LANCEDB_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const signed = await new Promise<string>((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`multihop studio printed no URL in 60 s:\n${out}\n${stderr}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /multihop studio: (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1] as string);
      }
    });
    child.on('exit', (code) => reject(new Error(`multihop studio exited with ${code}:\n${stderr}`)));
  });
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
  if (child && child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
  }
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
      const rows = await page.$$eval('[data-testid="event-row"]', (els) => els.map((el) => Number(el.getAttribute('data-seq'))));
      expect(rows).toEqual(trace.map((e) => e.seq));
      const timing = await page.evaluate(() => {
        const w = window as unknown as { __studioRunClicked?: number; __studioFirstLit?: number };
        return w.__studioFirstLit !== undefined && w.__studioRunClicked !== undefined ? w.__studioFirstLit - w.__studioRunClicked : null;
      });
      // Reported, not asserted: tests never assert wall-clock times.
      process.stderr.write(`studio e2e: ${workflow}: ${Math.round(timing ?? -1)} ms from clicking Run to the first lit node (offline model, corpus ${workflow === 'par2-rag' ? 'opened by this run' : 'already open'})\n`);
      expect(await page.textContent('[data-testid="run-answer"]')).toBeTruthy();
      if (workflow === 'hera') {
        // HERA's orchestrator picks a topology per question: drawn as soon as it is decided.
        await page.waitForSelector('[data-testid="topology"][data-diagram="topology"] [data-testid="topology-chart"][data-layout="done"]');
        const topology = trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'topology');
        expect(topology).toBeDefined();
      }
      if (workflow === 'par2-rag') await shot('studio-live-run');
    });
  }

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
      await view.waitForSelector('[data-testid="plot-pareto"] svg', { timeout: 20_000 });
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
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const traceBytes = evaluatedRows.reduce((n, row) => n + Buffer.byteLength(JSON.stringify(JSON.parse(readFileSync(join(evalDir, row.trace), 'utf8')))), 0);
    const charts = new Set(evaluatedRows.map((row) => row.workflow)).size;
    expect(said).toBe(`report: wrote ${out} (${mb(statSync(out).size)} MB: ${evaluatedRows.length} runs, ${evaluatedRows.length} traces compressed from ${mb(traceBytes)} MB, ${charts} charts); open it in a browser, no server needed\n`);
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

