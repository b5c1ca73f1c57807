import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import type { TraceEvent } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '@multihop/testing';
import { main } from '../cli';
import type { StudioEval, StudioInfo, StudioQuestionPage, StudioReplay, StudioRunDone, StudioRunStarted, StudioWorkflow } from './protocol';
import { buildReport } from './report';
import { startStudioServer, type StudioServer } from './server';

const TOKEN = 'test-token-0123456789';
const work = mkdtempSync(join(tmpdir(), 'multihop-studio-'));
const assets = join(work, 'assets');
const outside = mkdtempSync(join(tmpdir(), 'multihop-outside-'));
const db = join(work, 'db');
let evalDir = '';
let server: StudioServer;
let slowModel: OpenAICompatibleServer;

const auth = { authorization: `Bearer ${TOKEN}` };
const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path.replace(/^\//, '')}`, { ...init, headers: { ...auth, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
const json = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const response = await api(path, init);
  return { status: response.status, body: (await response.json()) as T };
};

/** Reads a run's event stream to its `done` event: the trace events in order and the result. */
async function readStream(runId: string, headers: Record<string, string> = {}): Promise<{ events: TraceEvent[]; done: StudioRunDone }> {
  const response = await fetch(`${server.url}api/runs/${runId}/events?token=${TOKEN}`, { headers });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  const events: TraceEvent[] = [];
  let done: StudioRunDone | undefined;
  for (const block of text.split('\n\n')) {
    const kind = /^event: (\w+)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (kind === 'trace' && data) events.push(JSON.parse(data) as TraceEvent);
    if (kind === 'done' && data) done = JSON.parse(data) as StudioRunDone;
  }
  if (!done) throw new Error(`the stream of ${runId} ended without done:\n${text.slice(-500)}`);
  return { events, done };
}

/** A raw request with headers fetch will not let a test set (Host). */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw request (any header, a chunked body): the status, the headers and the body as sent (not inflated). */
function raw(options: { path: string; method?: string; headers?: Record<string, string>; port?: number; chunks?: Buffer[] }): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: options.port ?? server.port, path: options.path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

beforeAll(async () => {
  mkdirSync(join(assets, 'assets'), { recursive: true });
  writeFileSync(join(assets, 'index.html'), '<!doctype html><title>multihop studio</title><script type="module" src="./assets/studio.js"></script>');
  writeFileSync(join(assets, 'assets', 'studio.js'), 'document.title = "studio"; // </script> must not end the inlined element');
  // A real eval directory, made by the real CLI, for the eval browser's endpoints.
  evalDir = join(work, 'evals', 'hotpot');
  const io = { out: () => undefined, err: () => undefined };
  const code = await main(['eval', '--workflows', 'par2-rag,single-turn-rag', '--dataset', 'hotpotqa-train', '--limit', '4', '--setting', 'closed', '--out', evalDir, '--db', db], io);
  expect(code).toBe(0);
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ workflowId: 'par2-rag', trace: [] }));
  symlinkSync(outside, join(work, 'link-out'));
  // A model endpoint that answers slowly, so a run is still going when the test stops it.
  slowModel = await startOpenAICompatibleServer(() => ({ delayMs: 2_000, content: '{}' }));
  process.env['OPENAI_API_KEY'] = 'local';
  process.env['OPENAI_BASE_URL'] = slowModel.baseURL;
  server = await startStudioServer({ assets, roots: [work], token: TOKEN, db, limits: { maxConcurrentRuns: 2, maxQuestionChars: 300, maxBodyBytes: 2048, keptRuns: 2 } });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await slowModel?.close();
  delete process.env['OPENAI_API_KEY'];
  delete process.env['OPENAI_BASE_URL'];
  rmSync(work, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('multihop studio server', () => {
  it('serves the web app without a token, and no API call without it', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    // No other site may frame it (clickjacking).
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('multihop studio');
    expect((await fetch(`${server.url}api/info`)).status).toBe(401);
    expect((await fetch(`${server.url}api/info`, { headers: { authorization: 'Bearer wrong-token-of-same-len' } })).status).toBe(401);
    expect((await fetch(`${server.url}api/info?token=${TOKEN}x`)).status).toBe(401);
    const info = await json<StudioInfo>('/api/info');
    expect(info.status).toBe(200);
    expect(info.body.model.offline).toBe(true);
    expect(info.body.datasets).toContain('hotpotqa-dev');
    expect(info.body.models).toContain('offline');
  });

  it('refuses another Host (DNS rebinding), sends no CORS header, and refuses a cross-origin POST', async () => {
    expect(await rawGet(`/api/info?token=${TOKEN}`, { host: 'attacker.example:80' })).toBe(403);
    expect(await rawGet('/', { host: `evil.example:${server.port}` })).toBe(403);
    const info = await api('/api/info', { headers: { origin: 'http://attacker.example' } });
    expect(info.headers.get('access-control-allow-origin')).toBeNull();
    const post = await api('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'par2-rag', question: 'x' }), headers: { origin: 'http://attacker.example' } });
    expect(post.status).toBe(403);
  });

  it('lists every workflow of the manifests with its chart, settings and node prompts', async () => {
    const { body } = await json<StudioWorkflow[]>('/api/workflows');
    const ids = body.map((w) => w.id);
    for (const id of ['par2-rag', 'opera', 'mao-arag', 'hera', 'mmoa-rag', 'single-turn-rag']) expect(ids).toContain(id);
    const par2 = body.find((w) => w.id === 'par2-rag') as StudioWorkflow;
    expect(par2.engine).toBe('langgraph');
    expect(par2.chart.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['plan', 'esc', 'generate']));
    expect(par2.settings).toHaveProperty('hopBudget');
    const opera = body.find((w) => w.id === 'opera') as StudioWorkflow;
    expect(opera.engine).toBe('xstate');
  });

  it('pages a dataset’s questions with gold, and names an unknown dataset', async () => {
    const page = await json<StudioQuestionPage>('/api/datasets/hotpotqa-train/questions?limit=5');
    expect(page.body.total).toBe(100);
    expect(page.body.questions).toHaveLength(5);
    expect(page.body.questions[0]?.answers.length).toBeGreaterThan(0);
    expect(page.body.questions[0]?.supportingTitles.length).toBeGreaterThan(0);
    const unknown = await json<{ error: string }>('/api/datasets/hotpotqa-dve/questions');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('hotpotqa-dev');
  });

  it('runs a dataset question live: the stream carries the trace in order, prompts and replies included, then the result with metrics', async () => {
    const dataset = await loadDataset('hotpotqa-train');
    const question = dataset.questions[0]!;
    const started = await json<StudioRunStarted>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'par2-rag', dataset: 'hotpotqa-train', id: question.id, model: 'offline' }) });
    expect(started.status).toBe(201);
    expect(started.body.gold?.supportingIds).toEqual(question.supportingIds);
    const { events, done } = await readStream(started.body.runId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.kind === 'enter')[0]?.node).toBe('plan');
    const call = events.find((e) => e.kind === 'llm');
    expect(Array.isArray(call?.data['messages'])).toBe(true);
    expect(typeof call?.data['text']).toBe('string');
    expect(done.result.status).toBe('ok');
    expect(done.result.questionId).toBe(question.id);
    expect(done.metrics).toHaveProperty('em');
    // The setting is the CLI's default (open): the same run as `multihop run` of that question, evidence and all.
    let printed = '';
    expect(await main(['run', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-train', '--id', question.id, '--json', '--db', db], { out: (t) => (printed += t), err: () => undefined })).toBe(0);
    const cli = JSON.parse(printed) as { answer: string; evidenceIds: string[] };
    expect({ answer: done.result.answer, evidenceIds: done.result.evidenceIds }).toEqual({ answer: cli.answer, evidenceIds: cli.evidenceIds });
    // A page that reconnects gets only what it has not seen.
    const again = await readStream(started.body.runId, { 'last-event-id': String(events.length - 3) });
    expect(again.events.map((e) => e.seq)).toEqual([events.length - 2, events.length - 1]);
    const runs = await json<Array<{ runId: string; state: string }>>('/api/runs');
    expect(runs.body.find((r) => r.runId === started.body.runId)?.state).toBe('done');

    // A second finished run beyond keptRuns (2 here) drops the oldest, trace and all.
    const more = [];
    for (const q of dataset.questions.slice(1, 3)) {
      const next = await json<StudioRunStarted>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'single-turn-rag', dataset: 'hotpotqa-train', id: q.id }) });
      await readStream(next.body.runId);
      more.push(next.body.runId);
    }
    const kept = await json<Array<{ runId: string }>>('/api/runs');
    expect(kept.body.map((r) => r.runId).sort()).toEqual(more.sort());
    expect((await api(`/api/runs/${started.body.runId}/events?token=${TOKEN}`)).status).toBe(404);
  });

  it('stops a run in flight, and bounds how many run at once', async () => {
    const body = (q: string) => JSON.stringify({ workflow: 'single-turn-rag', question: q, corpus: 'hotpotqa-train', model: 'openai:slow' });
    const info = await json<StudioInfo>('/api/info');
    // The slow endpoint is the configured model only if the environment names it; name it by request instead.
    expect(info.body.models).toContain('offline');
    const refusedModel = await json<{ error: string }>('/api/runs', { method: 'POST', body: body('Who directed Ed Wood?') });
    expect(refusedModel.status).toBe(400);
    expect(refusedModel.body.error).toContain('model');

    const slow = await startStudioServer({ assets, roots: [work], token: TOKEN, db, model: 'openai:slow', limits: { maxConcurrentRuns: 1 } });
    try {
      const post = (q: string) =>
        fetch(`${slow.url}api/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'single-turn-rag', question: q, corpus: 'hotpotqa-train' }) });
      const asked = slowModel!.requests.length;
      const first = await post('Who directed the film Ed Wood?');
      expect(first.status).toBe(201);
      const { runId } = (await first.json()) as StudioRunStarted;
      const second = await post('Which magazine was started first?');
      expect(second.status).toBe(429);
      expect(((await second.json()) as { error: string }).error).toContain('at once');
      // Stopped while its model call is in flight (the model answers after 2 s), not before or after it.
      for (let i = 0; i < 3000 && slowModel!.requests.length === asked; i++) await new Promise((r) => setTimeout(r, 10));
      expect(slowModel!.requests.length).toBeGreaterThan(asked);
      const stop = await fetch(`${slow.url}api/runs/${runId}/stop`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
      expect(await stop.json()).toEqual({ stopped: true });
      const stream = await (await fetch(`${slow.url}api/runs/${runId}/events?token=${TOKEN}`)).text();
      const done = JSON.parse(/event: done\ndata: (.*)/.exec(stream)?.[1] ?? 'null') as StudioRunDone;
      expect(done.result).toMatchObject({ status: 'error', stopReason: 'aborted' });
    } finally {
      await slow.close();
    }
  });

  it('refuses bad run requests, naming the field', async () => {
    const post = (body: unknown) => json<{ error: string }>('/api/runs', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
    const cases: Array<[unknown, number, RegExp]> = [
      ['{not json', 400, /not JSON/],
      [{ question: 'x' }, 400, /workflow/],
      [{ workflow: 'par2-rag', question: '   ' }, 400, /question is blank/],
      [{ workflow: 'par2-rag', question: 'q'.repeat(301) }, 413, /301 characters; the studio takes at most 300/],
      [{ workflow: 'par2-rag', question: 'x', dataset: 'hotpotqa-dev', id: 'y' }, 400, /not both/],
      [{ workflow: 'par2-rag', questoin: 'x' }, 400, /unknown field questoin/],
      [{ workflow: 'par2-rgа', question: 'Who?' }, 400, /unknown workflow/],
      [{ workflow: 'par2-rag', question: 'Who?', settings: { hopBudget: 'many' } }, 400, /hopBudget/],
      [{ workflow: 'par2-rag', dataset: 'hotpotqa-train', id: 'no-such-id' }, 404, /no question "no-such-id"/],
      [{ workflow: 'par2-rag', question: 'Who?', setting: 'closed' }, 400, /runs open/],
      [{ workflow: 'par2-rag', dataset: 'hotpotqa-train', id: 'x', corpus: 'musique-dev' }, 400, /corpus: only for free text/],
      [{ workflow: 'par2-rag', dataset: join(outside, 'secret.json'), id: 'x' }, 403, /dataset .* is outside the directories the studio may open/],
      [{ workflow: 'par2-rag', question: 'Who?', corpus: '../../etc/hostname' }, 403, /corpus .* is outside/],
      [{ workflow: 'par2-rag', question: 'Who?', corpus: 'link-out/secret.json' }, 403, /corpus .* leads outside/],
      [`{"workflow":"par2-rag","question":"${'x'.repeat(3000)}"}`, 413, /at most 2048/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post(body);
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(answer.body.error).toMatch(message);
    }
  });

  it('lists and opens the eval directories under its roots, read only', async () => {
    const listing = await json<{ evals: Array<{ dir: string; workflows: string[] }> }>('/api/evals');
    expect(listing.body.evals).toEqual([expect.objectContaining({ dir: join('evals', 'hotpot'), workflows: ['par2-rag', 'single-turn-rag'] })]);
    const before = readFileSync(join(evalDir, 'results.jsonl'), 'utf8');
    const opened = await json<StudioEval>(`/api/eval?dir=${encodeURIComponent('evals/hotpot')}`);
    expect(opened.status).toBe(200);
    expect(opened.body.rows).toHaveLength(8);
    expect(Object.keys(opened.body.verdicts)).toHaveLength(8);
    expect(Object.keys(opened.body.supportingIds ?? {})).toHaveLength(4);
    expect(Object.values(opened.body.supportingIds ?? {}).every((ids) => ids.length >= 2)).toBe(true);
    expect(opened.body.summary.workflows['par2-rag']?.n).toBe(4);
    const row = opened.body.rows[0]!;
    const replay = await json<StudioReplay>(`/api/eval/trace?dir=evals/hotpot&file=${encodeURIComponent(row.trace)}`);
    expect(replay.body.run.workflowId).toBe(row.workflow);
    expect(replay.body.chart.id).toBe(row.workflow);
    expect(replay.body.run.trace.length).toBeGreaterThan(0);
    const byPath = await json<StudioReplay>(`/api/trace?path=${encodeURIComponent(join(evalDir, row.trace))}`);
    expect(byPath.body.run.runId).toBe(replay.body.run.runId);
    // A file the eval lacks is named as the page named the eval, not by its real path.
    const absent = await json<{ error: string }>('/api/eval/trace?dir=evals/hotpot&file=traces');
    expect({ status: absent.status, error: absent.body.error }).toEqual({ status: 404, error: 'file traces does not exist in evals/hotpot' });
    // An eval's trace records its settings: the chart is its own, with no warning. One that records
    // none (a run --json of an earlier release), or settings refused here, is drawn with the
    // defaults, and the replay says so.
    expect(replay.body.warning).toBeUndefined();
    const { settings: _settings, ...bare } = JSON.parse(readFileSync(join(evalDir, row.trace), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(work, 'no-settings.json'), JSON.stringify(bare));
    writeFileSync(join(work, 'odd-settings.json'), JSON.stringify({ ...bare, settings: { nope: 1 } }));
    expect((await json<StudioReplay>('/api/trace?path=no-settings.json')).body.warning).toContain('the trace records no settings');
    expect((await json<StudioReplay>('/api/trace?path=odd-settings.json')).body.warning).toMatch(/the trace's settings do not configure \S+ here \(.*nope/);
    expect(readFileSync(join(evalDir, 'results.jsonl'), 'utf8')).toBe(before);
  });

  it('refuses every path outside its roots: .., absolute, a symlink out, and files outside the eval', async () => {
    const refused: Array<[string, number]> = [
      [`/api/eval?dir=${encodeURIComponent('../')}`, 403],
      [`/api/eval?dir=${encodeURIComponent(outside)}`, 403],
      [`/api/trace?path=${encodeURIComponent(join(outside, 'secret.json'))}`, 403],
      [`/api/trace?path=${encodeURIComponent('link-out/secret.json')}`, 403],
      [`/api/trace?path=${encodeURIComponent('evals/../../etc/passwd')}`, 403],
      [`/api/eval/trace?dir=evals/hotpot&file=${encodeURIComponent('../../link-out/secret.json')}`, 403],
      [`/api/eval/trace?dir=evals/hotpot&file=${encodeURIComponent('/etc/passwd')}`, 403],
      [`/api/eval/trace?dir=evals/hotpot&file=summary.md`, 422], // inside the eval, but not a trace
      [`/api/eval?dir=${encodeURIComponent('evals/none')}`, 404],
      ['/api/trace?path=', 403],
    ];
    for (const [path, status] of refused) {
      const answer = await json<{ error: string }>(path);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(answer.body.error.length).toBeGreaterThan(10);
    }
    expect((await fetch(`${server.url}..%2f..%2fetc%2fpasswd`)).status).toBe(404);
  });

  it('writes the eval view as one self-contained HTML file with every trace (compressed), chart and gold passage embedded', async () => {
    const { html, report, traceBytes } = await buildReport(assets, evalDir, '2026-11-23T00:00:00.000Z');
    // The offline model's figures say so from the browser tab on.
    expect(html).toContain(`<title>multihop report: hotpotqa-train (${report.eval.summary.n} questions, offline model)</title>`);
    const dataset = await loadDataset('hotpotqa-train');
    for (const [id, gold] of Object.entries(report.eval.supportingIds ?? {})) expect(gold).toEqual(dataset.questions.find((q) => q.id === id)?.supportingIds);
    expect(Object.keys(report.eval.supportingIds ?? {})).toHaveLength(4);
    expect(Object.keys(report.traces)).toHaveLength(8);
    // Packed by question: each pack inflates to its traces' files, and the packs are much smaller.
    expect(report.traceEncoding).toBe('gzip+base64');
    expect(report.tracePacks).toHaveLength(4);
    const opened = (file: string) => report.eval.rows.find((r) => r.trace === file)!;
    let inflated = 0;
    for (const [file, index] of Object.entries(report.traces)) {
      const pack = JSON.parse(gunzipSync(Buffer.from(report.tracePacks[index]!, 'base64')).toString('utf8')) as Record<string, unknown>;
      const onDisk = readFileSync(join(evalDir, file), 'utf8');
      inflated += Buffer.byteLength(JSON.stringify(JSON.parse(onDisk)));
      expect(pack[file]).toEqual(JSON.parse(onDisk));
      const row = opened(file);
      expect(Object.keys(pack).map(opened).every((other) => other.questionId === row.questionId)).toBe(true);
    }
    expect(traceBytes).toBe(inflated);
    const packedBytes = report.tracePacks.reduce((n, packed) => n + packed.length, 0);
    expect(packedBytes * 2).toBeLessThan(traceBytes);
    expect(Object.keys(report.charts).sort()).toEqual(['par2-rag', 'single-turn-rag']);
    expect(html).not.toContain('src="./assets/studio.js"');
    expect(html).toContain('<\\/script> must not end the inlined element');
    const embedded = /window\.__MULTIHOP_REPORT__ = (.*);<\/script>/.exec(html)?.[1];
    expect(JSON.parse(embedded as string)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });
  it('holds the runs-at-once cap against requests that arrive together (each start takes its slot before opening the corpus)', async () => {
    const capped = await startStudioServer({ assets, roots: [work], token: TOKEN, db, model: 'openai:slow', limits: { maxConcurrentRuns: 2 } });
    try {
      const post = (q: string) =>
        fetch(`${capped.url}api/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'single-turn-rag', question: q, corpus: 'hotpotqa-train' }) });
      const answers = await Promise.all(['Who directed Ed Wood?', 'Which magazine was started first?', 'Where was the director born?'].map(post));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429]);
      const listed = (await (await fetch(`${capped.url}api/runs`, { headers: auth })).json()) as Array<{ runId: string; state: string }>;
      expect(listed.filter((r) => r.state === 'running')).toHaveLength(2);
      // A page coming back to a run reads what it needs to draw it: the run as started.
      const started = (await answers.find((a) => a.status === 201)!.json()) as StudioRunStarted;
      const again = await fetch(`${capped.url}api/runs/${started.runId}`, { headers: auth });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(started);
      expect((await fetch(`${capped.url}api/runs/no-such-run`, { headers: auth })).status).toBe(404);
    } finally {
      await capped.close();
    }
  });

  it('answers an oversized chunked body with 413, not a reset connection', async () => {
    const answer = await raw({
      path: '/api/runs',
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 100 }, () => Buffer.alloc(1024, 'x')),
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body.toString('utf8')) as { error: string }).error).toContain('over 2048 bytes');
    // The server is still there for the next request.
    expect((await api('/api/info')).status).toBe(200);
  });

  it('answers malformed input with a 4xx that names it, not a 500, and echoes neither real paths nor file contents', async () => {
    const malformed = await json<{ error: string }>('/api/datasets/%E0%A4%A/questions');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('%-encoding');

    const bad = join(work, 'bad-evals');
    const midbad = join(bad, 'midbad');
    cpSync(evalDir, midbad, { recursive: true });
    const lines = readFileSync(join(midbad, 'results.jsonl'), 'utf8').split('\n');
    lines[1] = '{"workflow": "par2-rag", torn';
    writeFileSync(join(midbad, 'results.jsonl'), lines.join('\n'));
    const torn = await json<{ error: string }>(`/api/eval?dir=${encodeURIComponent('bad-evals/midbad')}`);
    expect(torn.status).toBe(422);
    expect(torn.body.error).toBe(`${join('bad-evals', 'midbad', 'results.jsonl')}:2: not a JSON line`);

    for (const [name, summary] of [['empty', {}], ['no-workflows', { dataset: 'hotpotqa-train', n: 4 }], ['array', []]] as const) {
      mkdirSync(join(bad, name), { recursive: true });
      writeFileSync(join(bad, name, 'summary.json'), JSON.stringify(summary));
      writeFileSync(join(bad, name, 'results.jsonl'), '');
      const answer = await json<{ error: string }>(`/api/eval?dir=${encodeURIComponent(`bad-evals/${name}`)}`);
      expect({ name, status: answer.status }).toEqual({ name, status: 422 });
      expect(answer.body.error).toContain('not an eval summary');
    }
    // Question ids that are not a list of strings, and a summary whose results.jsonl is gone: named, not a 500 or an empty eval.
    mkdirSync(join(bad, 'ids'), { recursive: true });
    writeFileSync(join(bad, 'ids', 'summary.json'), JSON.stringify({ dataset: 'hotpotqa-train', n: 4, workflows: {}, question_ids: 5 }));
    writeFileSync(join(bad, 'ids', 'results.jsonl'), '');
    const ids = await json<{ error: string }>(`/api/eval?dir=${encodeURIComponent('bad-evals/ids')}`);
    expect({ status: ids.status, error: ids.body.error }).toEqual({ status: 422, error: `${join('bad-evals', 'ids', 'summary.json')}: question_ids must be a list of question ids (strings), as multihop eval writes` });
    mkdirSync(join(bad, 'rowless'), { recursive: true });
    cpSync(join(evalDir, 'summary.json'), join(bad, 'rowless', 'summary.json'));
    const rowless = await json<{ error: string }>(`/api/eval?dir=${encodeURIComponent('bad-evals/rowless')}`);
    expect(rowless.status).toBe(404);
    expect(rowless.body.error).toContain('bad-evals/rowless has a summary.json but no results.jsonl');
    // A named dataset whose files are missing: its questions are refused naming the file, as a run of it is.
    const datasetsDir = process.env['MULTIHOP_DATASETS_DIR'];
    process.env['MULTIHOP_DATASETS_DIR'] = mkdtempSync(join(tmpdir(), 'multihop-no-datasets-'));
    try {
      const missing = await json<{ error: string }>('/api/datasets/musique-train/questions');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatch(/^dataset musique-train: .*does not exist/);
    } finally {
      process.env['MULTIHOP_DATASETS_DIR'] = datasetsDir;
    }
    // An eval where every run failed has no workflow figures, and is still an eval.
    mkdirSync(join(bad, 'allfail'), { recursive: true });
    writeFileSync(join(bad, 'allfail', 'summary.json'), JSON.stringify({ dataset: 'hotpotqa-train', n: 4, workflows: {} }));
    writeFileSync(join(bad, 'allfail', 'results.jsonl'), '');
    expect((await api(`/api/eval?dir=${encodeURIComponent('bad-evals/allfail')}`)).status).toBe(200);

    writeFileSync(join(work, 'secret.env'), 'OPENAI_API_KEY=sk-do-not-echo\n');
    writeFileSync(join(work, 'secret.json'), 'OPENAI_API_KEY=sk-do-not-echo\n');
    for (const file of ['secret.env', 'secret.json']) {
      const answer = await json<{ error: string }>(`/api/trace?path=${file}`);
      expect({ file, status: answer.status }).toEqual({ file, status: 422 });
      expect(answer.body.error).not.toContain('OPENAI');
      expect(answer.body.error).toContain(file);
    }
    // JSON that parses but is not a run's trace (an eval's summary): refused as unreadable, not as missing.
    const summaryAsTrace = await json<{ error: string }>(`/api/trace?path=${encodeURIComponent('bad-evals/allfail/summary.json')}`);
    expect({ status: summaryAsTrace.status, error: summaryAsTrace.body.error }).toEqual({
      status: 422,
      error: `bad-evals/allfail/summary.json: not a run's trace (a RunResult with workflowId and trace, as eval's traces/ files and run --json hold)`,
    });
    // A run's dataset that is not JSON: refused naming the file, without the parser's excerpt of it.
    const run = await json<{ error: string }>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'direct', dataset: 'secret.json', id: 'x' }) });
    expect(run.status).toBe(400);
    expect(run.body.error).toContain('secret.json');
    expect(run.body.error).toContain('not valid JSON');
    expect(run.body.error).not.toContain('OPENAI');
    // Named as the page named it, not by its real path on the server.
    expect(run.body.error).toMatch(/^secret\.json/);
    expect(run.body.error).not.toContain(work);
  });

  it('takes ?token= on the event stream only, not on any other API route', async () => {
    for (const path of ['api/info', 'api/runs', 'api/evals', `api/eval?dir=${encodeURIComponent('evals/hotpot')}&`]) {
      const url = `${server.url}${path}${path.includes('?') ? '' : '?'}token=${TOKEN}`;
      expect({ path, status: (await fetch(url)).status }).toEqual({ path, status: 401 });
    }
    const started = await json<StudioRunStarted>('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'direct', question: 'Who directed Ed Wood?', corpus: 'hotpotqa-train', model: 'offline' }) });
    expect(started.status).toBe(201);
    const { done } = await readStream(started.body.runId);
    expect(done.result.status).toBe('ok');
  });

  it('bound to every interface (0.0.0.0), prints a URL a browser can open and answers to the machine’s addresses', async () => {
    const wild = await startStudioServer({ assets, roots: [work], token: TOKEN, db, host: '0.0.0.0' });
    try {
      const shown = new URL(wild.url).hostname;
      expect(shown).not.toBe('0.0.0.0');
      // The URL names one of the machine's own external addresses; on a machine with loopback only, 127.0.0.1.
      const external = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => a.address);
      expect(external.length > 0 ? external : ['127.0.0.1']).toContain(shown);
      // The printed URL itself works, with the Host header a browser sends for it.
      const info = await fetch(`${wild.url}api/info`, { headers: auth });
      expect(info.status).toBe(200);
      expect((await raw({ path: '/api/info', port: wild.port, headers: { ...auth, host: `${shown}:${wild.port}` } })).status).toBe(200);
      expect((await raw({ path: '/', port: wild.port, headers: { host: `localhost:${wild.port}` } })).status).toBe(200);
      expect((await raw({ path: '/api/info', port: wild.port, headers: { ...auth, host: `evil.example:${wild.port}` } })).status).toBe(403);
      expect((await raw({ path: '/api/info', port: wild.port, headers: { ...auth, host: `0.0.0.0:${wild.port}` } })).status).toBe(200);
    } finally {
      await wild.close();
    }
  });

  it('compresses JSON answers for a client that accepts gzip, and only for one', async () => {
    const path = `/api/eval?dir=${encodeURIComponent('evals/hotpot')}`;
    const plain = await raw({ path, headers: auth });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await raw({ path, headers: { ...auth, 'accept-encoding': 'gzip, deflate' } });
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(packed.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    const refused = await raw({ path, headers: { ...auth, 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});
