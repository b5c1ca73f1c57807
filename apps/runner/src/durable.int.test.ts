import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';

// `multihop run --thread` killed with SIGKILL in the middle of a run, then `multihop resume`: the
// same answer as an uninterrupted run, and no model call that had completed is made again. The
// offline model answers each call after 250 ms (MULTIHOP_OFFLINE_LATENCY_MS) so the kill lands
// mid-run; the kill waits until the thread's journal in the SQLite store holds K completed calls.

const bin = join(__dirname, '..', 'bin', 'multihop.js');
const register = require.resolve('@multihop/ts-register');
const work = mkdtempSync(join(tmpdir(), 'multihop-resume-'));
const store = join(work, 'checkpoints.sqlite');
const env = { ...process.env, MULTIHOP_FROM_SOURCE: '1', LANCEDB_LOG: 'error', MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), MULTIHOP_CHECKPOINTS: store };
afterAll(() => rmSync(work, { recursive: true, force: true }));

// hotpotqa-train's 8th question ("Which publisher ... Two Dollar Radio"-style bridge question): the
// offline model needs several calls on it with both workflows.
const questionId = (require(join(sharedDatasetsDir(), 'hotpotqa', 'train-100.json')) as Array<{ _id: string }>)[7]!._id;
const runArgs = (workflow: string) => ['run', '--workflow', workflow, '--dataset', 'hotpotqa-train', '--id', questionId, '--db', join(work, 'lance'), '--json'];

interface RunJson {
  answer: string;
  status: string;
  usage: { llmCalls: number };
  trace: Array<{ node: string; kind: string; data: Record<string, unknown> }>;
}

function cli(args: string[], extra: Record<string, string> = {}): { status: number | null; json: RunJson; stderr: string } {
  const run = spawnSync(process.execPath, ['-r', register, bin, ...args], { cwd: work, env: { ...env, ...extra }, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`multihop ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { status: run.status, json: JSON.parse(run.stdout) as RunJson, stderr: run.stderr };
}

/** A second connection to a store's SQLite file, beside the processes under test. */
function connect(file: string, options: { readonly?: boolean; fileMustExist?: boolean; timeout?: number }) {
  const Database = require('better-sqlite3') as new (file: string, options: object) => {
    prepare(sql: string): { get(...args: unknown[]): unknown };
    exec(sql: string): unknown;
    close(): void;
  };
  return new Database(file, options);
}

/** Completed model calls journalled for a thread (read-only, while the writer runs). */
function journalled(thread: string, file = store): number {
  try {
    const db = connect(file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM multihop_calls WHERE thread_id = ?').get(thread) as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet
  }
}

/**
 * Whether SQLite's write lock on the store is free now. A process stopped inside a write
 * transaction (a checkpoint, a journal entry, a lease renewal) keeps the lock until it runs again,
 * and every other process's write then fails with "database is locked" after the busy timeout.
 */
function writable(file = store): boolean {
  const db = connect(file, { fileMustExist: true, timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

async function killAfter(
  args: string[],
  thread: string,
  calls: number,
  file = store,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stderr: string; journalled: number }> {
  // 500 ms a call: the kill lands while the run still has a call or more to make (a 1 s window at 250 ms was tight under CI's load).
  const child = spawn(process.execPath, ['-r', register, bin, ...args], { cwd: work, env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '500' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let done = false;
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => ((done = true), resolve({ code, signal }))));
  // Until the journal holds `calls` calls, or the child has ended on its own (its stderr then says why the test failed).
  const deadline = Date.now() + 120_000;
  while (!done && Date.now() < deadline && journalled(thread, file) < calls) await new Promise((r) => setTimeout(r, 50));
  child.kill(signal);
  const ended = await exited;
  return { ...ended, stderr, journalled: journalled(thread, file) };
}

describe.each([
  ['par2-rag', 4],
  ['opera', 3],
])('%s killed mid-run, then resumed', (workflow, k) => {
  it('ends with the uninterrupted answer and makes no completed call again', async () => {
    const reference = cli(runArgs(workflow)).json;
    expect(reference.usage.llmCalls).toBeGreaterThan(k);

    const thread = `kill-${workflow}`;
    const killed = await killAfter([...runArgs(workflow), '--thread', thread], thread, k);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.journalled).toBeGreaterThanOrEqual(k);
    expect(killed.journalled).toBeLessThan(reference.usage.llmCalls);

    const resumed = cli(['resume', thread, '--json']);
    expect(resumed.stderr).toContain(`thread ${thread}: continuing from its last checkpoint`);
    expect(resumed.json.answer).toBe(reference.answer);
    expect(resumed.json.status).toBe(reference.status);
    expect(resumed.json.usage.llmCalls).toBe(reference.usage.llmCalls);
    expect(resumed.json.trace.map((e) => `${e.node}:${e.kind}`)).toEqual(reference.trace.map((e) => `${e.node}:${e.kind}`));
    // The calls this process made: neither restored from a checkpoint nor served from the journal.
    const madeNow = resumed.json.trace.filter((e) => e.kind === 'llm' && e.data['restored'] !== true && e.data['replayed'] !== true);
    expect(madeNow).toHaveLength(reference.usage.llmCalls - killed.journalled);
    expect(journalled(thread)).toBe(reference.usage.llmCalls);

    // The thread is finished: resuming again answers from its checkpoints with no call at all.
    const again = cli(['resume', thread, '--json']);
    expect(again.stderr).toContain('already finished');
    expect(again.json.answer).toBe(reference.answer);
    expect(again.json.trace.filter((e) => e.kind === 'llm' && e.data['restored'] !== true)).toHaveLength(0);
  }, 180_000);
});

it('Ctrl-C mid-run says what is kept and how to go on, and resume finishes the run', async () => {
  const thread = 'ctrl-c';
  const stopped = await killAfter([...runArgs('par2-rag'), '--thread', thread], thread, 2, store, 'SIGINT');
  expect({ code: stopped.code, said: stopped.stderr.trim().split('\n').at(-1) }).toEqual({
    code: 130,
    said: `run: interrupted; the steps it finished are kept in thread ${thread} (${store}): multihop resume ${thread} continues it`,
  });
  const resumed = cli(['resume', thread, '--json']);
  expect(resumed.stderr).toContain(`thread ${thread}: continuing from its last checkpoint`);
  expect(resumed.json.status).toBe('ok');
  // Without --thread nothing is kept, and it says so.
  // A fresh LanceDB directory, so the run prints "ingesting corpus" once it is past start-up (the
  // Ctrl-C message is set up before the corpus is opened); its model calls wait 10 s each.
  const fresh = runArgs('par2-rag').map((a) => (a === join(work, 'lance') ? join(work, 'lance-ctrl-c') : a));
  const bare = spawn(process.execPath, ['-r', register, bin, ...fresh], { cwd: work, env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '10000' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  bare.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const ended = new Promise<number | null>((resolve) => bare.on('close', (code) => resolve(code)));
  for (let i = 0; i < 1200 && !said.includes('ingesting corpus'); i++) await new Promise((r) => setTimeout(r, 50));
  bare.kill('SIGINT');
  expect(await ended).toBe(130);
  expect(said).toContain('run: interrupted; nothing is kept (a run given --thread <id> keeps its steps');
}, 120_000);

it('a thread stopped at its --timeout answers as it ended when resumed, with no model call', () => {
  const thread = 'deadline';
  // 400 ms a call: the one-second deadline falls within PAR²'s first few calls.
  const slow = { MULTIHOP_OFFLINE_LATENCY_MS: '400' };
  const stopped = cli([...runArgs('par2-rag'), '--timeout', '1', '--thread', thread], slow).json as RunJson & { stopReason?: string };
  expect({ status: stopped.status, stopReason: stopped.stopReason }).toEqual({ status: 'partial', stopReason: 'budget:deadline' });
  for (let i = 0; i < 2; i++) {
    const again = cli(['resume', thread, '--json'], slow);
    expect(again.stderr).toContain('already finished; its result again, with no model call');
    expect({ status: again.json.status, stopReason: (again.json as { stopReason?: string }).stopReason, answer: again.json.answer }).toEqual({ status: 'partial', stopReason: 'budget:deadline', answer: stopped.answer });
    // Nothing runs again: the only event not restored from its checkpoints is the stop itself (before,
    // the deadline restarted from zero and the next step began, its model call cut off or paid).
    expect(again.json.trace.filter((e) => e.data['restored'] !== true).map((e) => `${e.kind} ${String(e.data['reason'] ?? '')}`)).toEqual(['decision budget:deadline']);
  }
}, 120_000);

it('a finished thread whose checkpoints turn out unreadable fails its resume by name, and keeps the result it recorded', () => {
  const file = join(work, 'damaged.sqlite');
  const first = cli([...runArgs('direct'), '--thread', 'damaged', '--checkpoints', file]);
  expect(first.json.status).toBe('ok');
  // Core's share of each checkpoint, replaced by something that is not a run delta.
  const db = connect(file, { fileMustExist: true });
  try {
    db.exec(`UPDATE checkpoints SET metadata = json_set(CAST(metadata AS TEXT), '$.multihop_run', 5) WHERE thread_id = 'damaged'`);
  } finally {
    db.close();
  }
  const resumed = spawnSync(process.execPath, ['-r', register, bin, 'resume', 'damaged', '--checkpoints', file, '--json'], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
  expect(resumed.status).not.toBe(0);
  expect(`${resumed.stdout}${resumed.stderr}`).toContain('not a multihop run delta');
  const record = connect(file, { readonly: true, fileMustExist: true });
  try {
    const row = record.prepare(`SELECT status, result FROM multihop_threads WHERE thread_id = 'damaged'`).get() as { status: string; result: string };
    expect(row.status).toBe('done');
    expect(JSON.parse(row.result)).toMatchObject({ answer: first.json.answer, status: 'ok' });
  } finally {
    record.close();
  }
}, 120_000);

it('threads lists a store\'s threads and removes them with their checkpoints; one another process holds is refused by name', async () => {
  const file = join(work, 'listed.sqlite');
  const threads = (...args: string[]) => spawnSync(process.execPath, ['-r', register, bin, 'threads', '--checkpoints', file, ...args], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
  const finished = cli([...runArgs('direct'), '--thread', 'finished', '--checkpoints', file]).json;
  cli(['run', '--workflow', 'cot', '--question', 'Who wrote Hamlet?', '--thread', 'other', '--checkpoints', file, '--json']);
  const listed = threads('--json');
  expect(listed.status).toBe(0);
  expect((JSON.parse(listed.stdout) as Array<{ thread: string; workflow: string; status: string; answer?: string }>).map((t) => [t.thread, t.workflow, t.status]).sort()).toEqual([
    ['finished', 'direct', 'done'],
    ['other', 'cot', 'done'],
  ]);
  expect(threads().stdout).toContain(`| finished | direct | ${questionId} of hotpotqa-train | done, ok | ${finished.answer} |`);
  expect(journalled('finished', file)).toBeGreaterThan(0);

  // Held by a live process of this machine (this one): refused, naming it; nothing removed.
  const { openCheckpointStore } = require('@multihop/checkpoint') as typeof import('@multihop/checkpoint');
  const holder = await openCheckpointStore(file);
  const owner = `${hostname()}:${process.pid}:test`;
  try {
    expect((await holder.acquireLease('other', owner, 60_000)).held).toBe(true);
    const refused = threads('--delete', 'finished,other');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(owner);
    expect(refused.stderr).toContain('removed thread finished (done)');
  } finally {
    await holder.releaseLease('other', owner);
    await holder.close();
  }
  expect(journalled('finished', file)).toBe(0);
  const unknown = threads('--delete', 'finished');
  expect({ status: unknown.status, said: unknown.stderr.trim() }).toEqual({ status: 2, said: `multihop: --delete: no thread "finished" in ${file}; its threads include other` });
  expect(threads('--delete-finished').stderr).toContain('removed thread other (done)');
  expect(threads().stdout.trim()).toBe(`no threads in ${file}`);
  expect(threads('--delete-finished').stderr.trim()).toBe(`no finished thread in ${file}`);
  expect(threads('--delete', ' , ')).toMatchObject({ status: 2, stderr: 'multihop: --delete needs thread ids, comma-separated (multihop threads lists them)\n' });
  const none = spawnSync(process.execPath, ['-r', register, bin, 'threads', '--checkpoints', join(work, 'no-such.sqlite')], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
  expect({ status: none.status, said: none.stderr.trim() }).toEqual({ status: 2, said: `multihop: no checkpoint store at ${join(work, 'no-such.sqlite')}: no run with --thread has used it` });
}, 120_000);

it('resume from another directory runs the thread on the dataset file and corpus it started with', () => {
  const home = join(work, 'relative');
  mkdirSync(join(home, 'data'), { recursive: true });
  mkdirSync(join(home, 'elsewhere'));
  copyFileSync(join(sharedDatasetsDir(), 'hotpotqa', 'train-100.json'), join(home, 'data', 'questions.json'));
  const run = (cwd: string, args: string[]) => spawnSync(process.execPath, ['-r', register, bin, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  // A relative dataset path and the default corpus directory (.multihop/lancedb here).
  const first = run(home, ['run', '--workflow', 'single-turn-rag', '--dataset', 'data/questions.json', '--id', questionId, '--thread', 'relative', '--json']);
  expect(first.status).toBe(0);
  const again = run(join(home, 'elsewhere'), ['resume', 'relative', '--json']);
  expect(again.stderr).not.toContain('does not exist');
  expect(again.status).toBe(0);
  expect((JSON.parse(again.stdout) as RunJson).answer).toBe((JSON.parse(first.stdout) as RunJson).answer);
  // It searched the corpus the run made, not a new one in the directory it was resumed from.
  expect(existsSync(join(home, 'elsewhere', '.multihop', 'lancedb'))).toBe(false);
}, 120_000);

it('Ctrl-C in rollouts says how many questions the file keeps and how to add the rest', async () => {
  const out = join(work, 'rollouts.jsonl');
  const args = ['rollouts', '--workflow', 'opera', '--dataset', 'hotpotqa-train', '--group', '2', '--limit', '6', '--out', out, '--db', join(work, 'lance')];
  const child = spawn(process.execPath, ['-r', register, bin, ...args], { cwd: work, env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '100' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const questionsIn = () => new Set((existsSync(out) ? readFileSync(out, 'utf8') : '').split('\n').slice(0, -1).filter(Boolean).map((l) => (JSON.parse(l) as { question_id: string }).question_id)).size;
  // Once the first question's groups are in the file, while the others still run.
  for (let i = 0; i < 1200 && questionsIn() < 1; i++) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGINT');
  expect(await ended).toBe(130);
  const kept = questionsIn();
  expect(kept).toBeGreaterThanOrEqual(1);
  expect(kept).toBeLessThan(6);
  expect(said.trim().split('\n').at(-1)).toBe(`rollouts: interrupted; ${out} keeps the ${kept} question${kept === 1 ? '' : 's'} finished: the same command with --resume adds the rest`);
}, 120_000);

it('resume of an unknown thread names the store and the threads it has', () => {
  const run = spawnSync(process.execPath, ['-r', register, bin, 'resume', 'no-such-thread'], { cwd: work, env, encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain(`no thread "no-such-thread" in ${store}`);
  // A store that does not exist is named, and not made.
  const typo = join(work, 'checkpoints.sqlit');
  const none = spawnSync(process.execPath, ['-r', register, bin, 'resume', 'no-such-thread', '--checkpoints', typo], { cwd: work, env, encoding: 'utf8' });
  expect({ status: none.status, stderr: none.stderr.trim() }).toEqual({ status: 2, stderr: `multihop: no checkpoint store at ${typo}: no run with --thread has used it` });
  expect(existsSync(typo)).toBe(false);
});

it('a thread id already used by another run is refused, naming that run', () => {
  spawnSync(process.execPath, ['-r', register, bin, ...runArgs('par2-rag'), '--thread', 'taken'], { cwd: work, env, encoding: 'utf8' });
  const run = spawnSync(process.execPath, ['-r', register, bin, ...runArgs('opera'), '--thread', 'taken'], { cwd: work, env, encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/thread "taken" in .* belongs to another run \(workflow par2-rag/);
});

/** A spawned CLI's exit code and stderr. */
function finished(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

it('two processes on one thread: the second is refused while the first runs, naming it; the first ends undisturbed', async () => {
  const args = [...runArgs('par2-rag'), '--thread', 'both'];
  // Its calls take 2.5 s each, so the two processes below, slow to start under a loaded CI, still find it running.
  const first = spawn(process.execPath, ['-r', register, bin, ...args], { cwd: work, env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '2500' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  first.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 600 && journalled('both') < 1; i++) await new Promise((r) => setTimeout(r, 50));
  expect(journalled('both')).toBeGreaterThanOrEqual(1);
  // A second `run --thread` and a `resume` of it, both while the first still runs.
  const [second, resumed] = await Promise.all([args, ['resume', 'both']].map((a) => finished(spawn(process.execPath, ['-r', register, bin, ...a], { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] }))));
  expect(second!.code).toBe(2);
  expect(second!.stderr).toContain(`thread "both" in ${store} is being run by another process (${hostname()}:${first.pid}:`);
  expect([resumed!.code, resumed!.stderr.includes('is being run by another process')]).toEqual([2, true]);
  expect(await exited).toBe(0);
  const alone = cli(runArgs('par2-rag')).json;
  const ran = JSON.parse(out) as RunJson;
  expect({ answer: ran.answer, status: ran.status, calls: ran.usage.llmCalls }).toEqual({ answer: alone.answer, status: alone.status, calls: alone.usage.llmCalls });
  // Once it has ended the thread is free: resume gives its result with no model call.
  const after = cli(['resume', 'both', '--json']);
  expect(after.stderr).toContain('already finished');
  expect(after.json.answer).toBe(alone.answer);
  expect(after.json.trace.filter((e) => e.kind === 'llm' && e.data['restored'] !== true)).toHaveLength(0);
}, 180_000);

it('a process stopped past its lease, whose thread another took meanwhile, writes nothing of the thread when it wakes', async () => {
  const { openCheckpointStore } = require('@multihop/checkpoint') as typeof import('@multihop/checkpoint');
  const first = spawn(process.execPath, ['-r', register, bin, ...runArgs('par2-rag'), '--thread', 'stolen'], { cwd: work, env: { ...env, MULTIHOP_OFFLINE_LATENCY_MS: '1000' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const done = finished(first);
  for (let i = 0; i < 600 && journalled('stolen') < 1; i++) await new Promise((r) => setTimeout(r, 50));
  // Stop it between two writes: stopped inside one, it would hold SQLite's write lock (and every
  // other process's write would time out) until it runs again. A stop takes effect at once, but not
  // necessarily before kill() returns, so the lock is probed a moment after.
  for (let tries = 0; ; tries++) {
    first.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 50));
    if (writable()) break;
    first.kill('SIGCONT');
    if (tries === 100) throw new Error('the first process was never stopped between writes');
    await new Promise((r) => setTimeout(r, 20 + 10 * (tries % 5)));
  }
  // Meanwhile another process takes the thread over (as when the stopped one's lease has expired).
  const other = await openCheckpointStore(store);
  try {
    const state = await other.acquireLease('stolen', 'other-host:1', 60_000);
    if (state.held) throw new Error('the first process held no lease on its thread');
    const holder = state.owner;
    expect(holder).toContain(`:${first.pid}:`);
    await other.releaseLease('stolen', holder);
    expect(await other.acquireLease('stolen', 'other-host:1', 60_000)).toEqual({ held: true });
    first.kill('SIGCONT');
    const { code, stderr } = await done;
    expect(code).toBe(2);
    expect(stderr).toContain(`lost thread "stolen" in ${store}: its lease expired unrenewed and another process took it`);
    // The thread's record is as the stopped process left it when it started: not ended by it.
    expect((await other.getThread('stolen'))?.status).toBe('running');
  } finally {
    // Never left stopped: a stopped child keeps its stderr pipe open, and jest would wait on it for ever.
    if (first.exitCode === null && first.signalCode === null) first.kill('SIGKILL');
    await other.releaseLease('stolen', 'other-host:1');
    await other.close();
  }
}, 180_000);

it('eval: a pair killed mid-run resumes mid-run when the command runs again', async () => {
  const evalArgs = (out: string) => ['eval', '--workflows', 'par2-rag', '--dataset', 'hotpotqa-train', '--offset', '7', '--limit', '1', '--setting', 'closed', '--concurrency', '1', '--db', join(work, 'lance'), '--out', out];
  const pairTrace = (out: string) => {
    const row = JSON.parse(require('node:fs').readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n')[0]) as { prediction: string; trace: string };
    return { row, trace: JSON.parse(require('node:fs').readFileSync(join(out, row.trace), 'utf8')) as RunJson };
  };
  const plain = join(work, 'eval-plain');
  expect(spawnSync(process.execPath, ['-r', register, bin, ...evalArgs(plain)], { cwd: work, env, encoding: 'utf8' }).status).toBe(0);
  const reference = pairTrace(plain);

  const out = join(work, 'eval-killed');
  const thread = `par2-rag/${questionId}`;
  const killed = await killAfter(evalArgs(out), thread, 2, join(out, 'checkpoints.sqlite'));
  expect(killed.signal).toBe('SIGKILL');
  expect(killed.journalled).toBeLessThan(reference.trace.usage.llmCalls);

  const again = spawnSync(process.execPath, ['-r', register, bin, ...evalArgs(out)], { cwd: work, env, encoding: 'utf8' });
  expect(again.status).toBe(0);
  const resumed = pairTrace(out);
  expect(resumed.row.prediction).toBe(reference.row.prediction);
  expect(resumed.trace.usage.llmCalls).toBe(reference.trace.usage.llmCalls);
  const madeNow = resumed.trace.trace.filter((e) => e.kind === 'llm' && e.data['restored'] !== true && e.data['replayed'] !== true);
  expect(madeNow).toHaveLength(reference.trace.usage.llmCalls - killed.journalled);
  // Once recorded, the pair's thread is dropped from the eval's store.
  expect(journalled(thread, join(out, 'checkpoints.sqlite'))).toBe(0);
}, 180_000);

it('eval: a pair recorded just before a crash, its thread not yet dropped, has its thread dropped when the command runs again', () => {
  const out = join(work, 'eval-recorded');
  const args = ['eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--offset', '7', '--limit', '1', '--concurrency', '1', '--db', join(work, 'lance'), '--out', out];
  const threadRows = () => {
    const db = connect(join(out, 'checkpoints.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE thread_id = ?`).get(`direct/${questionId}`) as { n: number }).n;
      return { checkpoints: count('checkpoints'), calls: count('multihop_calls') };
    } finally {
      db.close();
    }
  };
  const killed = spawnSync(process.execPath, ['-r', register, '-r', join(__dirname, '..', 'test', 'killAfterAppend.js'), bin, ...args], { cwd: work, env, encoding: 'utf8' });
  expect(killed.signal).toBe('SIGKILL');
  expect(readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  const left = threadRows();
  expect(left.checkpoints).toBeGreaterThan(0);
  expect(left.calls).toBeGreaterThan(0);
  // Every pair is recorded, so nothing runs; the recorded pair's thread is settled all the same.
  const again = spawnSync(process.execPath, ['-r', register, bin, ...args], { cwd: work, env, encoding: 'utf8' });
  expect(again.status).toBe(0);
  expect(again.stderr).toContain('1 of 1 pairs already in');
  expect(threadRows()).toEqual({ checkpoints: 0, calls: 0 });
}, 180_000);

it('a run whose checkpoint store another process keeps locked is refused after the busy timeout, naming the store and the likely cause', async () => {
  const { openCheckpointStore } = require('@multihop/checkpoint') as typeof import('@multihop/checkpoint');
  const file = join(work, 'locked.sqlite');
  await (await openCheckpointStore(file)).close();
  // As a process stopped (Ctrl-Z) inside a write would: the file's write lock, held.
  const holder = connect(file, {});
  holder.exec('BEGIN IMMEDIATE');
  try {
    const run = spawnSync(process.execPath, ['-r', register, bin, ...runArgs('direct'), '--thread', 'locked', '--checkpoints', file], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      `multihop: checkpoint store ${file}: another process has held its write lock for over 10 s (SQLite: database is locked); a process using this file is stopped (Ctrl-Z) or hung inside a write: let it go on (fg) or end it, or give this run another checkpoint file`,
    );
  } finally {
    holder.close();
  }
}, 60_000);
