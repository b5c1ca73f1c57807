import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { gzip } from 'node:zlib';
import { loadDataset, NAMED_DATASETS } from '@multihop/datasets';
import type { Dataset } from '@multihop/datasets';
import { studioWorkflows } from './catalog';
import { goldPassages, listEvals, readEval, readEvalTrace, readTrace } from './evals';
import { PathRefused, Roots } from './paths';
import type { StudioInfo, StudioLimits, StudioQuestionPage, StudioWorkflow } from './protocol';
import { loaderMessage, RequestRefused, RunManager } from './runs';

export interface StudioServerOptions {
  /** 127.0.0.1 unless the user binds elsewhere on purpose. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The built web app (index.html, assets/). */
  assets: string;
  /** Directories eval and trace paths may be in; the first is where relative paths start (the working directory). */
  roots: string[];
  /** The model runs use by default (`--model`); else the environment's or config file's, else offline. */
  model?: string;
  db?: string;
  /** A fixed token (tests); a fresh random one by default. */
  token?: string;
  limits?: Partial<StudioLimits>;
  version?: string;
}

export interface StudioServer {
  url: string;
  /** The URL with the token, as printed: opening it signs the page in. */
  signedUrl: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_LIMITS: StudioLimits = { maxQuestionChars: 4000, maxBodyBytes: 64 * 1024, maxConcurrentRuns: 2, runTimeoutMs: 10 * 60 * 1000, keptRuns: 100 };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The studio's server: the built web app at `/`, the API under `/api/` (see protocol.ts).
 * Local by default and shut to other pages: it binds 127.0.0.1, every API call needs the
 * start-up token (compared in constant time), a Host header other than this server's own is
 * refused (DNS rebinding), no CORS header is ever sent and a cross-origin POST is refused, and
 * paths are confined to the roots.
 */
export async function startStudioServer(options: StudioServerOptions): Promise<StudioServer> {
  const limits: StudioLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const token = options.token ?? randomBytes(24).toString('hex');
  const roots = new Roots(options.roots, (dir) => (dir === options.roots[0] ? dir : `--eval ${dir}`));
  const runs = new RunManager({ limits, roots, ...(options.model ? { model: options.model } : {}), ...(options.db ? { db: options.db } : {}) });
  const host = options.host ?? '127.0.0.1';
  let workflows: StudioWorkflow[] | undefined;
  const datasets = new Map<string, Promise<Dataset>>();
  let port = 0;
  /** A named dataset, loaded once per server. */
  const dataset = (name: string): Promise<Dataset> => {
    let loading = datasets.get(name);
    if (!loading) {
      loading = loadDataset(name);
      datasets.set(name, loading);
      loading.catch(() => datasets.delete(name));
    }
    return loading;
  };

  // Bound to every interface (0.0.0.0, ::), the studio is reached by the machine's addresses: those
  // are its own names too. Read at start-up, as the printed URL is.
  const wildcard = WILDCARDS.has(host);
  const addresses = wildcard ? interfaceAddresses() : [];
  /** This server's own `host:port` names (set once it listens): a Host or Origin naming another is refused. */
  let allowedHosts = new Set<string>();

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://studio.invalid'); // only its path and query are read
    if (!allowedHosts.has(req.headers.host ?? '')) return send(res, 403, { error: `Host ${req.headers.host ?? '(none)'} is not this studio's; open http://127.0.0.1:${port}/` });
    const method = req.method ?? 'GET';
    if (!url.pathname.startsWith('/api/')) return serveStatic(res, options.assets, url.pathname, method);

    // ?token= only where a header cannot be set (EventSource): elsewhere it would put the token in URLs and logs.
    const eventStream = method === 'GET' && /^\/api\/runs\/[\w-]+\/events$/.test(url.pathname);
    if (!authorised(req, eventStream ? url : undefined, token)) return send(res, 401, { error: 'missing or wrong token: open the URL multihop studio printed (it carries ?token=)' });
    const origin = req.headers.origin;
    if (method !== 'GET' && origin !== undefined && !allowedHosts.has(origin.replace(/^https?:\/\//, ''))) {
      return send(res, 403, { error: `cross-origin request from ${origin} refused` });
    }

    const path = url.pathname;
    if (method === 'GET' && path === '/api/info') {
      const model = runs.model(undefined);
      const info: StudioInfo = {
        version: options.version ?? '0.0.0',
        model: { id: model.describe.default, label: model.label, offline: model.offline, ...(model.partlyOffline ? { partlyOffline: true } : {}) },
        models: runs.modelChoices,
        datasets: Object.keys(NAMED_DATASETS),
        limits,
      };
      return send(res, 200, info);
    }
    if (method === 'GET' && path === '/api/workflows') {
      workflows ??= studioWorkflows();
      return send(res, 200, workflows);
    }
    const questions = /^\/api\/datasets\/([^/]+)\/questions$/.exec(path);
    if (method === 'GET' && questions) {
      let name: string;
      try {
        name = decodeURIComponent(questions[1] as string);
      } catch {
        return send(res, 400, { error: 'dataset: malformed %-encoding in the path' });
      }
      if (!Object.prototype.hasOwnProperty.call(NAMED_DATASETS, name)) return send(res, 404, { error: `dataset: no dataset "${name}"; known: ${Object.keys(NAMED_DATASETS).join(', ')}` });
      // A dataset whose files are missing or broken is the request's problem, named, as a run of it is (not a 500).
      const loaded = await dataset(name).catch((error: unknown) => {
        throw new RequestRefused(404, `dataset ${name}: ${loaderMessage(error)}`);
      });
      return send(res, 200, questionPage(loaded, url.searchParams));
    }
    if (method === 'GET' && path === '/api/runs') return send(res, 200, runs.list());
    if (method === 'POST' && path === '/api/runs') {
      const body = await readBody(req, limits.maxBodyBytes);
      return send(res, 201, await runs.start(body));
    }
    const runPath = /^\/api\/runs\/([\w-]+)(?:\/(events|stop))?$/.exec(path);
    if (runPath) {
      const [, runId, action] = runPath as unknown as [string, string, string | undefined];
      if (action === undefined && method === 'GET') {
        // What a page that comes back to a run needs to draw it (its chart, question, gold); the events follow on /events.
        const run = runs.get(runId);
        return run ? send(res, 200, run.started) : send(res, 404, { error: `no run ${runId} (finished runs beyond the latest ${limits.keptRuns} are dropped, and a restarted studio has none)` });
      }
      if (action === 'stop' && method === 'POST') return send(res, 200, { stopped: runs.stop(runId) });
      if (action === 'events' && method === 'GET') return streamRun(req, res, runs, runId);
    }
    if (method === 'GET' && path === '/api/evals') return send(res, 200, listEvals(roots));
    if (method === 'GET' && path === '/api/eval') {
      const evaluation = readEval(roots, url.searchParams.get('dir') ?? '');
      // Only the shared datasets: a path recorded in summary.json is not read from here.
      const supportingIds = await goldPassages(evaluation, (name) => (Object.prototype.hasOwnProperty.call(NAMED_DATASETS, name) ? dataset(name) : Promise.reject(new Error(name))));
      return send(res, 200, supportingIds ? { ...evaluation, supportingIds } : evaluation);
    }
    if (method === 'GET' && path === '/api/eval/trace') return send(res, 200, readEvalTrace(roots, url.searchParams.get('dir') ?? '', url.searchParams.get('file') ?? ''));
    if (method === 'GET' && path === '/api/trace') return send(res, 200, readTrace(roots, url.searchParams.get('path') ?? ''));
    return send(res, 404, { error: `no API ${method} ${path}` });
  };

  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (error instanceof RequestRefused || error instanceof PathRefused) return send(res, error.status, { error: error.message });
      send(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const withPort = (name: string): string => `${name.includes(':') ? `[${name}]` : name}:${port}`;
  allowedHosts = new Set(['127.0.0.1', 'localhost', '::1', host, ...addresses].map(withPort));
  // 0.0.0.0 is no address a browser can open: print one of the machine's own (the first external IPv4).
  const shownHost = wildcard ? (addresses.find((a) => !a.includes(':')) ?? addresses[0] ?? '127.0.0.1') : host;
  const base = `http://${withPort(shownHost)}/`;
  return {
    url: base,
    signedUrl: `${base}?token=${token}`,
    token,
    port,
    async close() {
      await runs.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** The machine's external interface addresses (those a wildcard bind answers on besides loopback), IPv4 first. */
function interfaceAddresses(): string[] {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const external = all.filter((a) => !a.internal && !(a.family === 'IPv6' && a.scopeid)); // a link-local address needs a %zone no Host header carries
  return [...external.filter((a) => a.family === 'IPv4'), ...external.filter((a) => a.family !== 'IPv4')].map((a) => a.address);
}

/** The Bearer header's token, else (where `url` is given: the event stream) the query's `?token=`. */
function authorised(req: IncomingMessage, url: URL | undefined, token: string): boolean {
  const header = req.headers.authorization;
  const given = header?.startsWith('Bearer ') ? header.slice(7) : url?.searchParams.get('token');
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Bodies smaller than this go uncompressed: gzip's framing would outweigh the saving. */
const GZIP_FROM_BYTES = 1024;

/**
 * A JSON answer; gzip-compressed when the request accepts it and the body is worth it (an eval of
 * thousands of rows is megabytes of repetitive JSON), off the event loop (zlib's thread pool).
 */
function send(res: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', vary: 'accept-encoding' };
  if (text.length < GZIP_FROM_BYTES || !acceptsGzip(res.req)) {
    res.writeHead(status, headers);
    res.end(text);
    return;
  }
  gzip(text, (error, packed) => {
    if (res.destroyed) return;
    if (error) {
      res.writeHead(status, headers);
      res.end(text);
      return;
    }
    res.writeHead(status, { ...headers, 'content-encoding': 'gzip' });
    res.end(packed);
  });
}

/** Whether Accept-Encoding names gzip (or *) without refusing it (q=0). */
function acceptsGzip(req: IncomingMessage | undefined): boolean {
  const header = req?.headers['accept-encoding'];
  if (!header) return false;
  return String(header)
    .split(',')
    .some((part) => {
      const [coding = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return (coding.trim() === 'gzip' || coding.trim() === '*') && (q === undefined || Number(q.slice(2)) > 0);
    });
}

/**
 * A JSON body no larger than `limit` bytes; a larger one is refused (413) without keeping it. A body
 * of unannounced length (chunked) that passes the limit is refused as soon as it does, and the rest
 * is read and dropped so the 413 reaches the client (a socket destroyed mid-upload answers with a
 * reset instead); past `DRAIN_FACTOR` times the limit the socket is closed after all.
 */
function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(new RequestRefused(413, `the request body is ${declared} bytes; the studio takes at most ${limit}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > limit * DRAIN_FACTOR) req.destroy();
        return;
      }
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        reject(new RequestRefused(413, `the request body is over ${limit} bytes, the most the studio takes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch (error) {
        reject(new RequestRefused(400, `the request body is not JSON (${(error as Error).message})`));
      }
    });
    req.on('error', reject);
  });
}

/** How much of a refused body is read and dropped before the socket is closed on its sender. */
const DRAIN_FACTOR = 16;

function serveStatic(res: ServerResponse, assets: string, pathname: string, method: string): void {
  if (method !== 'GET' && method !== 'HEAD') return send(res, 405, { error: `${method} is not served here` });
  let relativePath: string;
  try {
    relativePath = decodeURIComponent(pathname);
  } catch {
    return send(res, 400, { error: 'malformed path' });
  }
  const file = normalize(join(assets, relativePath === '/' ? 'index.html' : relativePath));
  if (!file.startsWith(assets.endsWith(sep) ? assets : assets + sep) || !existsSync(file) || !statSync(file).isFile()) {
    return send(res, 404, { error: `not found: ${pathname}` });
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    // The page loads nothing from elsewhere: no CDN, no fonts, no calls but to this server.
    'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  });
  if (method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

/** Server-sent events of a run: every event after Last-Event-ID (all, on first connect), live ones, then `done`. */
function streamRun(req: IncomingMessage, res: ServerResponse, runs: RunManager, runId: string): void {
  const run = runs.get(runId);
  if (!run) return send(res, 404, { error: `no run ${runId}` });
  const lastSeen = Number(req.headers['last-event-id'] ?? -1);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write('retry: 1000\n\n');
  let sent = Number.isInteger(lastSeen) ? lastSeen : -1;
  const write = (item: { event?: (typeof run.trace.events)[number]; done?: NonNullable<typeof run.done> }): void => {
    if (item.event) {
      if (item.event.seq <= sent) return;
      sent = item.event.seq;
      res.write(`id: ${item.event.seq}\nevent: trace\ndata: ${JSON.stringify(item.event)}\n\n`);
    }
    if (item.done) {
      res.write(`event: done\ndata: ${JSON.stringify(item.done)}\n\n`);
      res.end();
    }
  };
  for (const event of run.trace.events) write({ event });
  if (run.done) return write({ done: run.done });
  run.listeners.add(write);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  res.on('close', () => {
    clearInterval(keepAlive);
    run.listeners.delete(write);
  });
}

function questionPage(dataset: Dataset, params: URLSearchParams): StudioQuestionPage {
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const limit = Math.min(200, Math.max(1, Number(params.get('limit') ?? 50) || 50));
  // Lower case with accents dropped on both sides: "Zurich" finds "Zürich", in either Unicode form.
  const searchable = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const q = searchable((params.get('q') ?? '').trim());
  const titles = new Map(dataset.passages.map((p) => [p.id, p.title]));
  const matching = q ? dataset.questions.filter((x) => searchable(x.text).includes(q) || searchable(x.id) === q) : dataset.questions;
  return {
    dataset: dataset.name,
    total: matching.length,
    offset,
    questions: matching.slice(offset, offset + limit).map((x) => ({
      id: x.id,
      text: x.text,
      answers: [x.answer, ...x.aliases.filter((a) => a !== x.answer)],
      ...(x.hops !== undefined ? { hops: x.hops } : {}),
      ...(x.type !== undefined ? { type: x.type } : {}),
      supportingTitles: [...new Set(x.supportingIds.map((id) => titles.get(id) ?? id))],
    })),
  };
}
