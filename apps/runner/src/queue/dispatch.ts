import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, writeFileWhole, type Question } from '@multihop/core';
import type { Queue } from 'bullmq';
import type { Io } from '../io';
import { Progress } from '../eval/Progress';
import type { ResultsLog } from '../eval/ResultsLog';
import { writeTrace, type EvaluatedWorkflow } from '../eval/runPair';
import { EVAL_ALIVE_MS, evalAliveKey, JOB_ATTEMPTS, jobId, questionDigest, type EvalSpec, type PairJobData } from './jobs';
import { redactUrl } from '@multihop/checkpoint';
import { checkRedis, connectionFor, parseQueueUrl, QUEUE_NAME, reason } from './redis';
import { openStore, pairKey, parseStoreUrl, type ResultStore, type StoreSpec, type StoredPair } from './store';

export interface DispatchOptions {
  io: Io;
  command: string;
  /** --queue: redis://HOST:PORT. */
  queue: string;
  /** --store: postgres://...; absent: the results directory (workers on this machine). */
  store?: string;
  out: string;
  spec: EvalSpec;
  workflows: readonly EvaluatedWorkflow[];
  questions: readonly Question[];
  results: ResultsLog;
  stopped: () => boolean;
}

export interface DispatchOutcome {
  /** Pairs whose job failed for good (the processor threw on every attempt, or its workers kept dying). */
  failed: Array<{ workflow: string; questionId: string; reason: string }>;
  /** Pairs recorded in this eval's run, by the worker that ran them. */
  byWorker: Map<string, number>;
}

const POLL_MS = 400;
const STATE_CHECK_MS = 2000;
const WORKERS_CHECK_MS = 5000;

/**
 * The queue side of an eval: puts every pair not yet in results.jsonl on the queue as a BullMQ
 * job whose id is (eval id, workflow, question) — adding it again is a no-op, so a re-run or a
 * second eval process never doubles a pair — then follows the shared store, moving each pair a
 * worker recorded into results.jsonl and traces/ (this process is their only writer) and
 * ticking the progress bar, until every pair is recorded or has failed for good.
 */
export async function dispatchPairs(options: DispatchOptions): Promise<DispatchOutcome> {
  const { io, command, out, results } = options;
  const url = parseQueueUrl(options.queue);
  const storeSpec: StoreSpec = options.store ? parseStoreUrl(options.store) : { kind: 'dir', dir: out };
  await checkRedis(url);
  const store = await openStore(storeSpec);
  const { Queue: BullQueue } = require('bullmq') as typeof import('bullmq');
  const queue: Queue<PairJobData> = new BullQueue(QUEUE_NAME, { connection: connectionFor(url) });
  // Redis away mid-eval: the calls below wait for it (BullMQ retries for good). Say so, at most
  // once a minute, and say when it answers again, so a waiting eval is never a silent one.
  let outage = false;
  let toldAt = 0;
  queue.on('error', (error) => {
    if (!outage || Date.now() - toldAt > 60_000) {
      io.err(`\n${command}: the queue at ${redactUrl(url)} does not answer (${reason(error)}); waiting for it: the pairs recorded so far are kept, and the workers go on once it is back`);
      toldAt = Date.now();
    }
    outage = true;
  });
  const answered = () => {
    if (!outage) return;
    outage = false;
    io.err(`${command}: the queue at ${redactUrl(url)} answers again`);
  };
  const outcome: DispatchOutcome = { failed: [], byWorker: new Map() };
  try {
    const evalId = evalIdOf(out);
    // This eval is alive while it follows its pairs (see evalAliveKey).
    let aliveAt = 0;
    const keepAlive = async () => {
      if (Date.now() - aliveAt < EVAL_ALIVE_MS / 6) return;
      await (await queue.getBackend().client).set(evalAliveKey(evalId), String(process.pid), { PX: EVAL_ALIVE_MS });
      aliveAt = Date.now();
    };
    await keepAlive();
    const all = new Map<string, { workflow: EvaluatedWorkflow; question: Question }>();
    for (const question of options.questions) for (const workflow of options.workflows) all.set(pairKey(workflow.id, question.id), { workflow, question });

    // Pairs the workers recorded while no eval was following (a killed or stopped eval): move them in first.
    const stored = await store.keys(evalId);
    const missing = [...stored].filter((k) => {
      const pair = all.get(k);
      return pair && !results.has(pair.workflow.id, pair.question.id);
    });
    for (const pair of await store.read(evalId, missing)) take(out, results, pair);

    const pending = new Map<string, { workflow: EvaluatedWorkflow; question: Question }>();
    for (const [key, pair] of all) if (!results.has(pair.workflow.id, pair.question.id)) pending.set(key, pair);
    const total = all.size;
    io.err(`      ${total - pending.size} of ${total} pairs already in ${out}; ${pending.size} to queue on ${redactUrl(url)} (eval ${evalId}), results in ${store.describe}`);

    const jobOf = (key: string, pair: { workflow: EvaluatedWorkflow; question: Question }) => ({
      name: 'pair',
      data: {
        version: 1 as const,
        evalId,
        eval: options.spec,
        store: storeSpec,
        workflow: { id: pair.workflow.id, base: pair.workflow.workflow.id, settings: pair.workflow.settings, ...(pair.workflow.workflow.artifacts ? { artifacts: { ...pair.workflow.workflow.artifacts } } : {}) },
        questionId: pair.question.id,
        questionDigest: questionDigest(pair.question),
      },
      opts: {
        jobId: jobId(evalId, key),
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 7 * 86_400 },
        removeOnFail: { age: 7 * 86_400 },
      },
    });
    const enqueue = async (keys: readonly string[]) => {
      const jobs = (await keysToQueue(queue, store, evalId, keys)).map((key) => jobOf(key, pending.get(key)!));
      for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
      return jobs.length;
    };
    // A stored result that is a retryable failure (provider down): dropped and queued again.
    for (const key of pending.keys()) if (stored.has(key)) await store.forget(evalId, key);
    const added = await enqueue([...pending.keys()]);
    await keepAlive();
    const workers = await queue.getWorkersCount();
    io.err(`${command}: queued ${added} new jobs (${pending.size - added} were queued already); ${workers ? `${workers} worker${workers === 1 ? '' : 's'} connected` : `no worker connected yet: start \`multihop worker --queue ${redactUrl(url)}\` here or on any machine`}`);

    const progress = new Progress(pending.size, command);
    let lastStateCheck = Date.now();
    let lastWorkersCheck = Date.now();
    let lastWorkers = workers;
    while (pending.size && !options.stopped()) {
      await sleep(POLL_MS, options.stopped);
      await keepAlive();
      // One read per poll: the pending pairs the workers have recorded since the last one.
      for (const pair of await store.read(evalId, [...pending.keys()])) {
        take(out, results, pair);
        const key = pairKey(pair.row.workflow, pair.row.questionId);
        if (!pending.delete(key)) continue;
        outcome.byWorker.set(pair.worker, (outcome.byWorker.get(pair.worker) ?? 0) + 1);
        progress.tick(`${pair.row.workflow} ${pair.row.questionId} (${pair.worker})`);
      }
      if (Date.now() - lastStateCheck >= STATE_CHECK_MS && pending.size) {
        lastStateCheck = Date.now();
        const gone: string[] = [];
        await Promise.all(
          [...pending.keys()].map(async (key) => {
            const id = jobId(evalId, key);
            const state = await queue.getJobState(id);
            if (state === 'failed') {
              const job = await queue.getJob(id);
              const pair = pending.get(key);
              if (!pair) return;
              pending.delete(key);
              outcome.failed.push({ workflow: pair.workflow.id, questionId: pair.question.id, reason: job?.failedReason ?? 'failed' });
              progress.tick(`${pair.workflow.id} ${pair.question.id} failed`);
            } else if (state === 'unknown' || state === 'completed') gone.push(key);
          }),
        );
        answered();
        // Off the queue but not in the store (removed by hand, or completed into another store): queue it again.
        // One that completed since this poll's read is in the store, and the next poll takes it.
        if (gone.length) await enqueue(gone);
      }
      if (Date.now() - lastWorkersCheck >= WORKERS_CHECK_MS) {
        lastWorkersCheck = Date.now();
        const now = await queue.getWorkersCount();
        answered();
        if ((now === 0) !== (lastWorkers === 0)) io.err(`\n${command}: ${now ? `${now} worker${now === 1 ? '' : 's'} connected` : 'no worker connected: the pairs wait on the queue'}`);
        lastWorkers = now;
      }
    }
    if (pending.size && options.stopped()) {
      // Stop scheduling: pairs not yet taken leave the queue; a pair a worker is running finishes and is collected by the next run.
      let removed = 0;
      for (const key of pending.keys()) {
        const id = jobId(evalId, key);
        const state = await queue.getJobState(id);
        if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
          try {
            await queue.remove(id);
            removed++;
          } catch {
            // taken by a worker meanwhile
          }
        }
      }
      io.err(`${command}: took ${removed} waiting pairs off the queue; ${pending.size - removed} in flight on workers are recorded in the store for the next run`);
    }
    return outcome;
  } finally {
    await queue.close().catch(() => undefined);
    await store.close().catch(() => undefined);
  }
}

/**
 * Which of `keys` go on the queue now: those off the queue (no job, or one that finished) that the
 * store does not hold; a finished job is removed first. A job that finished is in the store (a
 * worker records before it completes the job), unless it was a retryable failure forgotten to run
 * again, or it went to another store. The store is read after the jobs' states, so a pair a worker
 * recorded while the eval started is left for the poll to take, not thrown away and paid for again.
 * A job waiting or running is left alone: its worker records it.
 */
export async function keysToQueue(queue: Pick<Queue, 'getJobState' | 'remove'>, store: Pick<ResultStore, 'keys'>, evalId: string, keys: readonly string[]): Promise<string[]> {
  const off: Array<{ key: string; finished: boolean }> = [];
  for (const key of keys) {
    const state = await queue.getJobState(jobId(evalId, key));
    if (state === 'completed' || state === 'failed' || state === 'unknown') off.push({ key, finished: state !== 'unknown' });
  }
  const recorded = off.length ? await store.keys(evalId) : new Set<string>();
  const again = off.filter(({ key }) => !recorded.has(key));
  for (const { key, finished } of again) if (finished) await queue.remove(jobId(evalId, key));
  return again.map(({ key }) => key);
}

/** Moves one recorded pair into the eval's directory: the trace first, then its results line. */
function take(out: string, results: ResultsLog, pair: StoredPair): void {
  if (results.has(pair.row.workflow, pair.row.questionId)) return;
  writeTrace(out, pair.row.trace, pair.trace);
  results.append(pair.row);
}

/** The eval's id on the queue and in the store: made once per results directory (queue.json), so a re-run continues the same jobs. */
function evalIdOf(out: string): string {
  const file = join(out, 'queue.json');
  if (existsSync(file)) {
    try {
      const id = (JSON.parse(readFileSync(file, 'utf8')) as { evalId?: unknown }).evalId;
      if (typeof id === 'string' && /^[\w-]+$/.test(id)) return id;
    } catch {
      // rewritten below
    }
    throw new InputError(`${file}: no eval id in it; delete it to start the queue side of this eval afresh`, { file });
  }
  const id = randomUUID().replace(/-/g, '').slice(0, 16);
  // Whole or not at all: workers and a re-run read it, and a torn file would hold no id.
  writeFileWhole(file, `${JSON.stringify({ evalId: id, createdAt: new Date().toISOString() }, null, 2)}\n`);
  return id;
}

function sleep(ms: number, stopped: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (stopped() || Date.now() - started >= ms) {
        clearInterval(timer);
        resolve();
      }
    }, Math.min(ms, 100));
  });
}
