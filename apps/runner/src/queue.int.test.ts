import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DEFAULT_ROUTER_FILE } from '@multihop/router';
import { sharedDatasetsDir, startPostgres, startRedis, type TestServer } from '@multihop/testing';
import { main } from './cli';
import type { ResultRow } from './eval/ResultsLog';
import { keysToQueue } from './queue/dispatch';
import { evalAliveKey, jobId } from './queue/jobs';
import { connectionFor } from './queue/redis';
import { openStore, pairKey } from './queue/store';
import type { Summary } from './eval/summarize';

// Distributed evaluation for real: redis-server and postgres (Debian's, installed by the set-up
// when missing) on ports of their own, `multihop eval --queue` and two `multihop worker` child
// processes of the real CLI, the offline model, LanceDB on disk, the shared HotpotQA dev sample.
const bin = join(__dirname, '..', 'bin', 'multihop.js');
const env = { ...process.env, MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' };
const temp = mkdtempSync(join(tmpdir(), 'multihop-queue-'));
const db = join(temp, 'db');
const PAIRS = ['--workflows', 'single-turn-rag,par2-rag', '--dataset', 'hotpotqa-dev', '--limit', '12', '--db', db];

let redis: TestServer | undefined;
let postgres: TestServer | undefined;
let local: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  // The single-process eval of the same pairs with the same model (it also ingests the corpus).
  local = mkdtempSync(join(temp, 'local-'));
  const done = spawnSync(process.execPath, [bin, 'eval', ...PAIRS, '--out', local, '--concurrency', '2'], { env, encoding: 'utf8', timeout: 120_000 });
  expect(done.status).toBe(0);
}, 1_500_000); // a fresh CI machine installs redis-server and postgresql first, after any other suite's apt-get lets go of the lock

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all([redis?.stop(), postgres?.stop()]);
  rmSync(temp, { recursive: true, force: true });
});

function rows(out: string): ResultRow[] {
  return readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
}

/** summary.json without what no two runs share: when it was written and how long each run took. */
function comparable(out: string): Omit<Summary, 'created'> {
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Omit<Summary, 'created'> & { created?: string };
  delete summary.created;
  for (const w of Object.values(summary.workflows)) {
    delete (w as Partial<typeof w>).latency_ms_p50;
    delete (w as Partial<typeof w>).latency_ms_p95;
  }
  return summary;
}

/** A `multihop worker` child whose stderr (a line per started and recorded pair) is kept. */
function startWorker(options: { node?: string[]; concurrency?: number; env?: Record<string, string> } = {}): { child: ChildProcess; log: () => string; exited: Promise<number | null> } {
  const args = [...(options.node ?? []), bin, 'worker', '--queue', redis!.url, '--concurrency', String(options.concurrency ?? 2), '--stalled-after', '5'];
  const child = spawn(process.execPath, args, { env: { ...env, ...options.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
  return { child, log: () => log, exited };
}

/** The pairs the workers of the eval in `out` have recorded in its store (the Postgres table, or the directory). */
async function storedKeys(out: string, inPostgres: boolean): Promise<Set<string>> {
  const { evalId } = JSON.parse(readFileSync(join(out, 'queue.json'), 'utf8')) as { evalId: string };
  const store = await openStore(inPostgres ? { kind: 'postgres', url: postgres!.url } : { kind: 'dir', dir: out });
  try {
    return await store.keys(evalId);
  } finally {
    await store.close();
  }
}

/** Pairs a worker's log shows started and not recorded: the ones it is running. */
function inFlight(log: string): string[] {
  const started = [...log.matchAll(/started (\S+ \S+) \(job/g)].map((m) => m[1]!);
  const finished = new Set([...log.matchAll(/recorded (\S+ \S+) \(job/g)].map((m) => m[1]!));
  return [...new Set(started)].filter((p) => !finished.has(p));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ready()` holds, for two minutes at most; fails saying what it waited for and what `log()` shows (a child that died at start-up). */
async function until(ready: () => boolean, what: string, log: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`waited 120 s for ${what}; the child said:\n${log()}`);
    await sleep(20);
  }
}

describe.each([
  ['a Postgres table', () => ['--store', postgres!.url]],
  ['the results directory', () => []],
])('multihop eval --queue with two workers, results in %s', (_label, store) => {
  it('records every pair exactly once though a worker is SIGKILLed mid-pair, and summarises as a single-process eval does', async () => {
    const out = mkdtempSync(join(temp, 'eval-'));
    const a = startWorker();
    const b = startWorker();
    // Both ready before the pairs are queued (under load one may take seconds to load), so both get some.
    await until(() => a.log().includes('taking pairs from') && b.log().includes('taking pairs from'), 'both workers to start', () => a.log() + b.log());
    const evalRun = spawn(process.execPath, [bin, 'eval', ...PAIRS, '--out', out, '--queue', redis!.url, ...store()], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(evalRun);
    let evalErr = '';
    evalRun.stderr!.on('data', (chunk: Buffer) => (evalErr += chunk.toString('utf8')));
    evalRun.stdout!.resume();
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    try {
      // Freeze worker A while its log shows a pair started and not recorded, so the kill lands mid-pair.
      let killedWith: string[] = [];
      const deadline = Date.now() + 90_000;
      let evalDone = false;
      void evalExit.then(() => (evalDone = true));
      while (killedWith.length === 0 && !evalDone && Date.now() < deadline) {
        await sleep(10);
        if (!/recorded/.test(a.log()) || inFlight(a.log()).length === 0) continue;
        a.child.kill('SIGSTOP');
        await sleep(300); // what it printed before it stopped reaches us
        // A logs `recorded` after the store has the pair and its checkpoints are dropped: a pair it
        // stopped in between is recorded already, and no other worker needs to run it.
        const recorded = await storedKeys(out, store().length > 0);
        const running = inFlight(a.log()).filter((p) => !recorded.has(pairKey(...(p.split(' ') as [string, string]))));
        if (running.length) {
          a.child.kill('SIGKILL');
          killedWith = running;
        } else a.child.kill('SIGCONT');
      }
      if (killedWith.length === 0) throw new Error(`worker A never had a pair in flight after one recorded:\n${a.log()}\n${b.log()}\n${evalErr}`);
      expect(await a.exited).toBeNull(); // killed by the signal
      expect(await evalExit).toBe(0);

      // The pairs A was running went to B (after A's lock lapsed) and were recorded once.
      for (const pair of killedWith) expect(b.log()).toContain(`started ${pair} (job`);
      const got = rows(out);
      expect(got).toHaveLength(24);
      expect(new Set(got.map((r) => `${r.workflow} ${r.questionId}`)).size).toBe(24);
      expect(evalErr).toMatch(/run by 2 workers/);
      if (store().length) {
        const client = new Client({ connectionString: postgres!.url });
        await client.connect();
        try {
          const evalId = (JSON.parse(readFileSync(join(out, 'queue.json'), 'utf8')) as { evalId: string }).evalId;
          const stored = await client.query<{ n: string; pairs: string }>('SELECT count(*) AS n, count(DISTINCT (workflow, question_id)) AS pairs FROM multihop_eval_results WHERE eval_id = $1', [evalId]);
          expect(stored.rows[0]).toEqual({ n: '24', pairs: '24' });
        } finally {
          await client.end();
        }
      }
      // Every trace file is there, and the rows equal the single-process eval's but for timings.
      const strip = (r: ResultRow) => ({ ...r, latencyMs: 0, usage: { ...r.usage, wallMs: 0 } });
      const expected = new Map(rows(local).map((r) => [`${r.workflow} ${r.questionId}`, strip(r)]));
      for (const row of got) expect({ pair: `${row.workflow} ${row.questionId}`, killed: killedWith.includes(`${row.workflow} ${row.questionId}`), row: strip(row) }).toEqual({ pair: `${row.workflow} ${row.questionId}`, killed: killedWith.includes(`${row.workflow} ${row.questionId}`), row: expected.get(`${row.workflow} ${row.questionId}`) });
      expect(comparable(out)).toEqual(comparable(local));
      for (const row of got) expect(() => readFileSync(join(out, row.trace))).not.toThrow();

      // A re-run finds everything done and queues nothing.
      const again = spawnSync(process.execPath, [bin, 'eval', ...PAIRS, '--out', out, '--queue', redis!.url, ...store()], { env, encoding: 'utf8', timeout: 60_000 });
      expect(again.status).toBe(0);
      expect(again.stderr).toContain('24 of 24 pairs already in');
      expect(again.stderr).toContain('queued 0 new jobs');
    } finally {
      for (const child of [a.child, b.child, evalRun]) child.kill('SIGKILL');
    }
  }, 180_000);
});

describe('a pair whose thread another process holds', () => {
  /**
   * A queued eval whose first par2-rag pair's thread another process holds: the pairs'
   * checkpoints are in the eval directory's SQLite file, and the test takes that thread's lease there.
   */
  const heldEval = async (prefix: string, holder: string) => {
    const { openCheckpointStore } = require('@multihop/checkpoint') as typeof import('@multihop/checkpoint');
    const out = mkdtempSync(join(temp, prefix));
    const evalRun = spawn(process.execPath, [bin, 'eval', ...PAIRS, '--out', out, '--queue', redis!.url], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    const held = rows(local).find((r) => r.workflow === 'par2-rag')!;
    for (let i = 0; i < 1200 && !existsSync(join(out, 'queue.json')); i++) await sleep(50);
    const { evalId } = JSON.parse(readFileSync(join(out, 'queue.json'), 'utf8')) as { evalId: string };
    const thread = `${evalId}/par2-rag/${held.questionId}`;
    const checkpoints = await openCheckpointStore(join(out, 'checkpoints.sqlite'));
    expect(await checkpoints.acquireLease(thread, holder, 300_000)).toEqual({ held: true });
    return { out, evalRun, evalExit, held, checkpoints, letGo: () => checkpoints.releaseLease(thread, holder) };
  };
  const strip = (r: ResultRow) => ({ ...r, latencyMs: 0, usage: { ...r.usage, wallMs: 0 } });

  it('waits for it on the worker, runs the other pairs meanwhile, then runs and records it once it is let go', async () => {
    const { out, evalRun, evalExit, held, checkpoints, letGo } = await heldEval('held-', 'elsewhere:1');
    let worker: ReturnType<typeof startWorker> | undefined;
    try {
      worker = startWorker();
      const others = () => storedKeys(out, false).then((keys) => keys.size);
      for (let i = 0; i < 1200 && ((await others()) < 23 || !worker.log().includes(`waiting for par2-rag ${held.questionId}`)); i++) await sleep(100);
      expect(worker.log()).toContain(`waiting for par2-rag ${held.questionId} (job`);
      expect(worker.log()).toContain('another process runs its thread (elsewhere:1)');
      // Every other pair is recorded; this one is not run while the thread is held.
      const recorded = await storedKeys(out, false);
      expect(recorded.size).toBe(23);
      expect(recorded.has(pairKey('par2-rag', held.questionId))).toBe(false);
      expect(worker.log()).not.toContain(`started par2-rag ${held.questionId} (job`);
      await letGo();
      expect(await evalExit).toBe(0);
      expect(worker.log()).toContain(`started par2-rag ${held.questionId} (job`);
      const got = rows(out);
      expect(got).toHaveLength(24);
      expect(strip(got.find((r) => r.workflow === 'par2-rag' && r.questionId === held.questionId)!)).toEqual(strip(held));
    } finally {
      await checkpoints.close();
      worker?.child.kill('SIGKILL');
      evalRun.kill('SIGKILL');
    }
  }, 300_000);

  it('a worker stopped while it waits puts the pair back unfailed, and another worker runs it once the thread is let go', async () => {
    const { out, evalRun, evalExit, held, checkpoints, letGo } = await heldEval('held-stop-', 'elsewhere:2');
    const workers: Array<ReturnType<typeof startWorker>> = [];
    try {
      const first = startWorker();
      workers.push(first);
      for (let i = 0; i < 1200 && !first.log().includes(`waiting for par2-rag ${held.questionId}`); i++) await sleep(100);
      expect(first.log()).toContain(`waiting for par2-rag ${held.questionId} (job`);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.log()).not.toContain(`failed par2-rag ${held.questionId}`);
      expect(first.log()).not.toContain(`started par2-rag ${held.questionId} (job`);
      // The pair is back on the queue: a second worker takes it, waits, and runs it once the thread is let go.
      const second = startWorker();
      workers.push(second);
      for (let i = 0; i < 1200 && !second.log().includes(`waiting for par2-rag ${held.questionId}`); i++) await sleep(100);
      expect(second.log()).toContain(`waiting for par2-rag ${held.questionId} (job`);
      await letGo();
      expect(await evalExit).toBe(0);
      expect(second.log()).toContain(`recorded par2-rag ${held.questionId} (job`);
      const got = rows(out);
      expect(got).toHaveLength(24);
      expect(strip(got.find((r) => r.workflow === 'par2-rag' && r.questionId === held.questionId)!)).toEqual(strip(held));
    } finally {
      await checkpoints.close();
      for (const w of workers) w.child.kill('SIGKILL');
      evalRun.kill('SIGKILL');
    }
  }, 300_000);
});

describe('bad --queue and --store', () => {
  const run = async (...argv: string[]) => {
    let err = '';
    const code = await main(argv, { out: () => undefined, err: (t) => void (err += `${t}\n`) });
    return { code, err };
  };
  const closedPort = async () => {
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => server.close(r));
    return port;
  };

  it('names the option and the URL in one line, and gives up on a server that is down (the test times out if it waits on one)', async () => {
    const notUrl = await run('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--queue', 'localhost:6379');
    expect(notUrl).toMatchObject({ code: 2, err: 'multihop: --queue "localhost:6379" is not a Redis URL (localhost://); give redis://HOST:PORT\n' });
    const http = await run('worker', '--queue', 'http://127.0.0.1:6379');
    expect(http.err).toMatch(/^multihop: --queue "http:\/\/127\.0\.0\.1:6379" is not a Redis URL/);
    expect((await run('worker')).err).toMatch(/^multihop: worker needs --queue/);

    // A database the server does not have (16 by default: 0 to 15) is refused, not silently database 0.
    const noDb = await run('worker', '--queue', `${redis!.url}/99`);
    expect(noDb.code).toBe(2);
    expect(noDb.err).toMatch(new RegExp(`^multihop: --queue ${redis!.url.replace(/[.]/g, '\\.')}/99: the Redis server refuses database 99 \\(.*DB index is out of range`));

    const port = await closedPort();
    const down = await run('worker', '--queue', `redis://127.0.0.1:${port}`);
    expect(down.code).toBe(2);
    expect(down.err).toMatch(new RegExp(`^multihop: --queue redis://127\\.0\\.0\\.1:${port}: the Redis server is not answering \\(.*ECONNREFUSED`));
    const evalDown = await run('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--db', db, '--queue', `redis://127.0.0.1:${port}`);
    expect(evalDown.err).toContain(`--queue redis://127.0.0.1:${port}: the Redis server is not answering`);

    const pgDown = await run('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--limit', '1', '--db', db, '--out', mkdtempSync(join(temp, 'pg-')), '--queue', redis!.url, '--store', `postgres://postgres@127.0.0.1:${port}/postgres`);
    expect(pgDown.code).toBe(2);
    expect(pgDown.err).toContain(`--store postgres://postgres@127.0.0.1:${port}/postgres: the Postgres server is not answering or refused the connection (`);
    expect((await run('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--queue', redis!.url, '--store', 'mysql://x')).err).toMatch(/^multihop: --store "mysql:\/\/x" is not a Postgres URL/);
    expect((await run('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--store', postgres!.url)).err).toMatch(/^multihop: --store is where queue workers record results: give it with --queue/);
    expect((await run('worker', '--queue', redis!.url, '--rate-limit', 'fast')).err).toMatch(/^multihop: --rate-limit "fast": give pairs per duration/);
  }, 300_000);
});

describe('a worker whose model is not the eval’s', () => {
  it('puts the pair back unspent and stops with a line naming both models; another worker runs it', async () => {
    const out = mkdtempSync(join(temp, 'mixed-'));
    const wrong = spawn(process.execPath, [bin, 'worker', '--queue', redis!.url], { env: { ...env, MULTIHOP_MODEL: 'openai:another-model', OPENAI_API_KEY: 'unused' }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(wrong);
    let wrongLog = '';
    wrong.stderr!.on('data', (chunk: Buffer) => (wrongLog += chunk.toString('utf8')));
    const wrongExit = new Promise<number | null>((resolve) => wrong.once('exit', (code) => (children.delete(wrong), resolve(code))));
    try {
      await until(() => wrongLog.includes('taking pairs from'), 'the worker to start', () => wrongLog);
      const evalRun = spawn(process.execPath, [bin, 'eval', '--workflows', 'single-turn-rag', '--dataset', 'hotpotqa-dev', '--limit', '3', '--db', db, '--out', out, '--queue', redis!.url], { env, stdio: 'ignore' });
      children.add(evalRun);
      const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
      expect(await wrongExit).toBe(2);
      expect(wrongLog).toMatch(/cannot run the pairs of eval \w+: this worker's model is openai:another-model, the eval's is offline: give the worker the same MULTIHOP_MODEL or multihop\.config\.json; stopped, its pairs are back on the queue/);
      const right = startWorker();
      expect(await evalExit).toBe(0);
      right.child.kill('SIGTERM');
      expect(await right.exited).toBe(0);
      expect(rows(out).map((r) => r.questionId).sort()).toEqual(rows(local).filter((r) => r.workflow === 'single-turn-rag').slice(0, 3).map((r) => r.questionId).sort());
      expect(right.log()).not.toMatch(/failed/);
    } finally {
      wrong.kill('SIGKILL');
    }
  }, 300_000);
});

describe('a worker building a workflow from another file than the eval’s', () => {
  it('refuses the pairs of a router whose file was retrained after the eval queued them, back on the queue; a worker with the eval’s file runs them', async () => {
    const out = mkdtempSync(join(temp, 'router-file-'));
    const file = join(out, '..', 'router-queued.json');
    copyFileSync(DEFAULT_ROUTER_FILE, file);
    const original = readFileSync(file, 'utf8');
    const evalRun = spawn(process.execPath, [bin, 'eval', '--workflows', 'router,direct,single-turn-rag', '--set', `router.file=${file}`, '--set', 'router.candidates=direct,single-turn-rag', '--dataset', 'hotpotqa-dev', '--offset', '300', '--limit', '2', '--db', db, '--out', out, '--queue', redis!.url], { env, stdio: 'ignore' });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    await until(() => existsSync(join(out, 'queue.json')), 'the eval to queue its pairs');
    // Retrained in place once the eval had built its router and queued its pairs.
    writeFileSync(file, JSON.stringify({ ...JSON.parse(original), lambda: 0.5 }));
    const stale = startWorker();
    expect(await stale.exited).toBe(2);
    expect(stale.log()).toMatch(/cannot run the pairs of eval \w+: router: this worker builds it from .* \(path → sha1\), not the eval's .*: give the worker the same files; stopped, its pairs are back on the queue/);
    writeFileSync(file, original);
    const right = startWorker();
    expect(await evalExit).toBe(0);
    right.child.kill('SIGTERM');
    expect(await right.exited).toBe(0);
    expect(rows(out).filter((r) => r.workflow === 'router')).toHaveLength(2);
  }, 300_000);
});

describe('a worker that cannot see the eval’s results directory or loads another copy of its questions or corpus', () => {
  it('refuses the pairs, back on the queue, naming --store, the question or the corpus; a worker with the eval’s files runs them', async () => {
    const out = mkdtempSync(join(temp, 'other-files-'));
    // Two HotpotQA train questions (5a7decc75542995f4f40230f, 5a77ec115542992a6e59dff7) as a CSV, searching a corpus file of three passages.
    const csv = join(out, '..', 'two-questions.csv');
    const questions = 'Question,Answer\nWhat language were books being translated into during the era of Haymo of Faversham?,Latin\nIf Gallu is a demon Lilu is what?,a spirit\n';
    writeFileSync(csv, questions);
    const corpusFile = join(out, '..', 'three-passages.jsonl');
    const passages = ['Haymo of Faversham|Haymo of Faversham was an English Franciscan.', 'Latin|Books were translated into Latin.', 'Lilu|A lilu is a spirit in Akkadian lore.']
      .map((p, i) => JSON.stringify({ id: `p${i}`, title: p.split('|')[0], text: p.split('|')[1] }))
      .join('\n');
    writeFileSync(corpusFile, `${passages}\n`);
    const evalRun = spawn(process.execPath, [bin, 'eval', '--workflows', 'direct', '--dataset', csv, '--corpus', corpusFile, '--db', db, '--out', out, '--queue', redis!.url], { env, stdio: 'ignore' });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    await until(() => existsSync(join(out, 'queue.json')), 'the eval to queue its pairs');
    // A machine where the eval's directory path holds another eval's (or nothing): it would record where the eval never looks.
    const queueJson = readFileSync(join(out, 'queue.json'), 'utf8');
    writeFileSync(join(out, 'queue.json'), JSON.stringify({ evalId: 'another-eval' }));
    const elsewhere = startWorker();
    expect(await elsewhere.exited).toBe(2);
    expect(elsewhere.log()).toMatch(/the eval records its results in its directory .*, which holds eval another-eval on this machine: a worker on another machine needs an eval started with --store postgres:\/\/\.\.\.; stopped, its pairs are back on the queue/);
    writeFileSync(join(out, 'queue.json'), queueJson);
    // A worker whose copy of the question file has another gold answer.
    writeFileSync(csv, questions.replace(',a spirit', ',a god'));
    const edited = startWorker();
    expect(await edited.exited).toBe(2);
    expect(edited.log()).toMatch(/question \S+ of .*two-questions\.csv, as this worker loads it, differs from the eval's \(its text, gold answers or supporting passages\)/);
    writeFileSync(csv, questions);
    // A worker whose copy of the corpus file has a passage more.
    writeFileSync(corpusFile, `${passages}\n${JSON.stringify({ id: 'p3', title: 'Gallu', text: 'A gallu is a demon.' })}\n`);
    const otherCorpus = startWorker();
    expect(await otherCorpus.exited).toBe(2);
    expect(otherCorpus.log()).toMatch(/this worker searches corpus \S+ of 4 passages, the eval \S+ of 3: give the worker the same dataset and --corpus files/);
    expect(otherCorpus.log()).not.toMatch(/started direct/);
    writeFileSync(corpusFile, `${passages}\n`);
    const right = startWorker();
    expect(await evalExit).toBe(0);
    right.child.kill('SIGTERM');
    expect(await right.exited).toBe(0);
    expect(rows(out).map((r) => r.gold)).toEqual(expect.arrayContaining([['Latin'], ['a spirit']]));
    expect(elsewhere.log()).not.toMatch(/started direct/);
    // The question it loads as the eval did, it may run; the edited one, never.
    expect(edited.log()).not.toMatch(/started direct 1 /);
  }, 300_000);
});

describe('jobs left on the queue by an eval that is gone', () => {
  it('are dropped by the worker, which goes on to the next eval\'s pairs', async () => {
    const out = mkdtempSync(join(temp, 'left-'));
    const csv = join(out, '..', 'left-two.csv');
    writeFileSync(csv, 'Question,Answer\nWhat language were books being translated into during the era of Haymo of Faversham?,Latin\nIf Gallu is a demon Lilu is what?,a spirit\n');
    const args = [bin, 'eval', '--workflows', 'direct', '--dataset', csv, '--db', db, '--out', out, '--queue', redis!.url];
    // An eval killed with its pairs on the queue (no worker yet), its directory then deleted.
    const killed = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(killed);
    let said = '';
    killed.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    const gone = new Promise<void>((resolve) => killed.once('exit', () => (children.delete(killed), resolve())));
    await until(() => /queued 2 new jobs/.test(said), 'the first eval to queue its pairs', () => said);
    const { evalId } = JSON.parse(readFileSync(join(out, 'queue.json'), 'utf8')) as { evalId: string };
    killed.kill('SIGKILL');
    await gone;
    rmSync(out, { recursive: true, force: true });
    // Its liveness key lapses (EVAL_ALIVE_MS after it stopped): deleted here rather than waited for.
    const { Queue } = require('bullmq') as typeof import('bullmq');
    const probe = new Queue('liveness-probe', { connection: connectionFor(redis!.url) });
    await (await probe.getBackend().client).del(evalAliveKey(evalId));
    await probe.close();
    // The same command again: a new eval in the same directory, then one worker.
    const evalRun = spawn(process.execPath, args, { env, stdio: 'ignore' });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    const worker = startWorker();
    expect(await evalExit).toBe(0);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(rows(out).map((r) => r.gold).sort()).toEqual([['Latin'], ['a spirit']]);
    expect(worker.log()).toContain(`eval ${evalId} has stopped following its pairs`);
    expect(worker.log()).not.toContain('refusing');
  }, 300_000);
});

describe('a worker killed after it recorded a pair, before the queue heard the job was done', () => {
  it('leaves the job to a retry that finds the pair recorded and runs nothing', async () => {
    const out = mkdtempSync(join(temp, 'recorded-'));
    const csv = join(out, '..', 'recorded-two.csv');
    writeFileSync(csv, 'Question,Answer\nWhat language were books being translated into during the era of Haymo of Faversham?,Latin\nIf Gallu is a demon Lilu is what?,a spirit\n');
    const evalRun = spawn(process.execPath, [bin, 'eval', '--workflows', 'direct', '--dataset', csv, '--db', db, '--out', out, '--queue', redis!.url], { env, stdio: 'ignore' });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => (children.delete(evalRun), resolve(code))));
    // One pair at a time, killed the moment it has recorded the first: that job stays active, unfinished.
    const killed = startWorker({ node: ['-r', join(__dirname, '..', 'test', 'killAfterRecord.js')], concurrency: 1 });
    expect(await killed.exited).toBeNull();
    const [first] = [...killed.log().matchAll(/: recorded direct (\S+) \(job/g)].map((m) => m[1]!);
    expect(first).toBeDefined();
    // The next worker takes the other pair, slowly (15 s a call), so the eval is still waiting when the
    // first job's lock lapses (--stalled-after 5) and the queue hands that job to it again.
    const next = startWorker({ env: { MULTIHOP_OFFLINE_LATENCY_MS: '15000' } });
    try {
      expect(await evalExit).toBe(0);
    } finally {
      next.child.kill('SIGTERM');
      await next.exited;
    }
    expect(rows(out).map((r) => r.gold).sort()).toEqual([['Latin'], ['a spirit']]);
    const id = first!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(next.log()).toMatch(new RegExp(`already recorded direct ${id} \\(job \\S+, attempt \\d+\\): not run again`));
    expect(next.log()).not.toContain(`started direct ${first}`);
  }, 300_000);
});

describe('an eval started again while workers record its pairs', () => {
  it('queues again only the finished pairs the store lacks, never one a worker recorded while the eval started', async () => {
    const { Queue, Worker } = require('bullmq') as typeof import('bullmq');
    const connection = connectionFor(redis!.url);
    const queue = new Queue('keys-to-queue-test', { connection });
    const evalId = 'restart';
    const [recorded, lost, failed, waiting, unqueued, removed] = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((q) => pairKey('direct', q)) as [string, string, string, string, string, string];
    const store = await openStore({ kind: 'dir', dir: mkdtempSync(join(temp, 'restart-')) });
    try {
      // Three jobs finish (two completed, one failed for good), and a worker recorded the first.
      await queue.addBulk([recorded, lost, failed].map((key) => ({ name: 'pair', data: { key }, opts: { jobId: jobId(evalId, key), attempts: 1 } })));
      const worker = new Worker<{ key: string }>('keys-to-queue-test', async (job) => {
        if (job.data.key === failed) throw new Error('failed for good');
      }, { connection });
      const states = () => Promise.all([recorded, lost, failed].map((key) => queue.getJobState(jobId(evalId, key))));
      for (let i = 0; i < 1500 && !(await states()).every((s) => s === 'completed' || s === 'failed'); i++) await sleep(20);
      await worker.close();
      expect(await states()).toEqual(['completed', 'completed', 'failed']);
      // One job waits for a worker; one pair was recorded and its job is gone (removed by hand, or aged out).
      await queue.add('pair', { key: waiting }, { jobId: jobId(evalId, waiting) });
      await store.record(evalId, { row: { workflow: 'direct', questionId: 'q6' } as ResultRow, trace: {}, worker: 'w' });

      // The worker records the first pair while the eval reads the jobs' states (after a store read made before them would have missed it).
      const racing = {
        getJobState: async (id: string) => {
          const state = await queue.getJobState(id);
          if (id === jobId(evalId, recorded)) await store.record(evalId, { row: { workflow: 'direct', questionId: 'q1' } as ResultRow, trace: {}, worker: 'w' });
          return state;
        },
        remove: (id: string) => queue.remove(id),
      };
      const again = await keysToQueue(racing as unknown as Parameters<typeof keysToQueue>[0], store, evalId, [recorded, lost, failed, waiting, unqueued, removed]);
      expect(again.sort()).toEqual([lost, failed, unqueued].sort());
      // The recorded pair's job and record stay for the eval's poll to take; the others' finished jobs are gone, to be added again.
      expect(await queue.getJobState(jobId(evalId, recorded))).toBe('completed');
      expect([...(await store.keys(evalId))].sort()).toEqual([recorded, removed].sort());
      expect(await queue.getJobState(jobId(evalId, lost))).toBe('unknown');
      expect(await queue.getJobState(jobId(evalId, waiting))).toBe('waiting');
    } finally {
      await store.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
  }, 300_000);
});

describe('multihop worker --idle-exit and --rate-limit', () => {
  it('with nothing queued, says its limit, stops after the idle seconds and exits 0', async () => {
    const done = spawnSync(process.execPath, [bin, 'worker', '--queue', redis!.url, '--rate-limit', '5/500ms', '--idle-exit', '1'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(done.status).toBe(0);
    expect(done.stderr).toMatch(/taking pairs from redis:\/\/127\.0\.0\.1:\d+ \(queue multihop-eval\), 2 at a time, at most 5 per 500 ms across workers\n/);
    expect(done.stderr).toMatch(/idle for 1 s: finishing the pairs in flight\n.*stopped\n$/);
  }, 60_000);
});

describe('a worker told to stop twice', () => {
  it('stops at once on the second signal (exit 130), and another worker runs the pair it had in flight', async () => {
    const out = mkdtempSync(join(temp, 'twice-'));
    const evalRun = spawn(process.execPath, [bin, 'eval', '--workflows', 'opera', '--dataset', 'hotpotqa-dev', '--limit', '1', '--db', db, '--out', out, '--queue', redis!.url], { env, stdio: ['ignore', 'ignore', 'ignore'] });
    children.add(evalRun);
    const evalExit = new Promise<number | null>((resolve) => evalRun.once('exit', (code) => resolve(code)));
    // A slow model (two seconds a call), so the pair is still in flight when the signals come.
    const slow = spawn(process.execPath, [bin, 'worker', '--queue', redis!.url, '--stalled-after', '5'], { env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '2000' }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(slow);
    let log = '';
    slow.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const slowExit = new Promise<number | null>((resolve) => slow.once('exit', (code) => resolve(code)));
    let other: ReturnType<typeof startWorker> | undefined;
    try {
      for (let i = 0; i < 600 && !/started opera \S+ \(job/.test(log); i++) await sleep(100);
      expect(log).toMatch(/started opera \S+ \(job/);
      slow.kill('SIGINT');
      for (let i = 0; i < 100 && !log.includes('finishing the pairs in flight'); i++) await sleep(50);
      expect(log).toContain('SIGINT (SIGINT again stops at once): finishing the pairs in flight');
      slow.kill('SIGINT');
      expect(await slowExit).toBe(130);
      expect(log).toContain('SIGINT again: stopping now; the pairs in flight go back on the queue when their lock lapses');
      expect(log).not.toMatch(/recorded opera/);
      // The pair goes back on the queue once its lock lapses; another worker runs it and the eval ends.
      other = startWorker();
      expect(await evalExit).toBe(0);
      // Recorded once, and run to its end (ok, or partial where OPERA's step bound cut it), not failed.
      expect(rows(out).map((r) => r.workflow)).toEqual(['opera']);
      expect(rows(out)[0]!.status).not.toBe('error');
    } finally {
      slow.kill('SIGKILL');
      other?.child.kill('SIGKILL');
      evalRun.kill('SIGKILL');
    }
  }, 120_000);
});
