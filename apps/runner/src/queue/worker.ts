import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { holdThread, openCheckpointStore, redactUrl, type CheckpointStore } from '@multihop/checkpoint';
import { ConfigError, MultihopError, type Question } from '@multihop/core';
import type { Job, Worker } from 'bullmq';
import type { Io } from '../io';
import { openCorpus, searchedCorpus, type OpenedCorpus } from '../corpus';
import { modelFor, resolveModel } from '../model';
import { evaluatedWorkflow, modelIdOf, pairThread, runPair, settlePair, type EvaluatedWorkflow, type PairContext } from '../eval/runPair';
import { findWorkflow } from '../workflows';
import { EVAL_ALIVE_MS, evalAliveKey, questionDigest, type EvalSpec, type PairJobData, type PairJobResult } from './jobs';
import { checkRedis, connectionFor, parseQueueUrl, QUEUE_NAME, reason } from './redis';
import { openStore, pairKey, type ResultStore, type StoreSpec } from './store';

export interface WorkerOptions {
  queue: string;
  /** Pairs this worker runs at once. */
  concurrency: number;
  /** BullMQ's limiter, shared by every worker of the queue: at most `max` pairs start per `durationMs`. */
  rateLimit?: { max: number; durationMs: number };
  /** Seconds without a lock renewal after which a worker's job is taken to be lost (killed) and given to another worker. */
  stalledAfter: number;
  /** LanceDB directory; default: the eval's --db, else ./.multihop/lancedb. */
  db?: string;
  /** Stop after this many seconds with nothing to do (benchmarks and scripts); default: run until SIGINT/SIGTERM. */
  idleExit?: number;
}

/** `N/DURATION` with DURATION `500ms`, `1s`, `1m` (or a bare number of seconds). */
export function parseRateLimit(text: string | undefined): { max: number; durationMs: number } | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m)?\s*$/.exec(text);
  const max = match ? Number(match[1]) : NaN;
  const amount = match ? Number(match[2] ?? 1) : NaN;
  const durationMs = match ? amount * ({ ms: 1, s: 1000, m: 60_000 }[match[3] ?? 's'] ?? 1000) : NaN;
  // A duration needs an amount or a unit: "10/s" is 10 per second, "10/" says nothing.
  if (!match || (match[2] === undefined && match[3] === undefined) || !(max >= 1) || !(durationMs >= 1)) throw new ConfigError(`--rate-limit "${text}": give pairs per duration, e.g. 10/1s, 600/1m or 5/500ms`);
  return { max, durationMs: Math.round(durationMs) };
}

interface EvalContext {
  pair: PairContext;
  questions: Map<string, Question>;
  corpus: OpenedCorpus;
}

/**
 * `multihop worker`: takes question × workflow pairs off the queue and runs each with runPair,
 * as `multihop eval` does in its own process, then records it in the eval's store. Any number of
 * workers, on any number of machines. The eval's corpus and model are opened once per eval and
 * kept. A worker killed mid-pair stops renewing its lock; after --stalled-after seconds another
 * worker takes the pair again. SIGINT/SIGTERM: take no new pair, finish the ones in flight, exit.
 */
export async function runWorker(io: Io, options: WorkerOptions): Promise<number> {
  const url = parseQueueUrl(options.queue);
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got ${options.concurrency}`);
  if (!Number.isFinite(options.stalledAfter) || options.stalledAfter < 2) throw new ConfigError(`--stalled-after must be at least 2 seconds, got ${options.stalledAfter}`);
  if (options.idleExit !== undefined && !(options.idleExit >= 1)) throw new ConfigError(`--idle-exit must be at least 1 second, got ${options.idleExit}`);
  await checkRedis(url);
  const name = `${hostname()}:${process.pid}`;
  const log = (text: string) => io.err(`worker ${name}: ${text}`);
  const contexts = new Map<string, Promise<EvalContext>>();
  const stores = new Map<string, Promise<ResultStore>>();
  const checkpointStores = new Map<string, Promise<CheckpointStore>>();
  const workflows = new Map<string, EvaluatedWorkflow>();

  const contextFor = (spec: EvalSpec) => openOnce(contexts, JSON.stringify(spec), () => openContext(spec, options));
  const storeFor = (spec: StoreSpec) => openOnce(stores, JSON.stringify(spec), () => openStore(spec, 'the eval\'s --store'));
  // Pairs checkpoint where the workers share them: the Postgres store, or the eval directory's
  // SQLite file. A pair retried after its worker died resumes mid-run in the next worker.
  const checkpointsFor = (spec: StoreSpec) => {
    const location = spec.kind === 'postgres' ? spec.url : join(spec.dir, 'checkpoints.sqlite');
    return openOnce(checkpointStores, location, () => openCheckpointStore(location));
  };
  const workflowFor = (spec: PairJobData['workflow']): EvaluatedWorkflow => {
    const key = JSON.stringify(spec);
    let found = workflows.get(key);
    if (!found) {
      const selected = findWorkflow(spec.base, Object.entries(spec.settings).map(([k, value]) => ({ target: spec.base, key: k, value, where: `the queued ${spec.id}` })));
      if (JSON.stringify(selected.settings) !== JSON.stringify(spec.settings)) {
        throw new ConfigError(`${spec.id}: this worker builds it with settings ${JSON.stringify(selected.settings)}, not the eval's ${JSON.stringify(spec.settings)} (another version of the method?)`);
      }
      // Built from another router file, policy or state than the eval's (another copy, or one retrained since).
      // By content: the same shipped file lies under another path in another install.
      const digests = (artifacts: Readonly<Record<string, string>> | undefined) => JSON.stringify(Object.values(artifacts ?? {}).sort());
      if (spec.artifacts && digests(selected.workflow.artifacts) !== digests(spec.artifacts)) {
        throw new ConfigError(`${spec.id}: this worker builds it from ${JSON.stringify(selected.workflow.artifacts ?? {})} (path → sha1), not the eval's ${JSON.stringify(spec.artifacts)}: give the worker the same files`);
      }
      found = evaluatedWorkflow(spec.id, selected);
      workflows.set(key, found);
    }
    return found;
  };

  const lockDuration = Math.round(options.stalledAfter * 1000);
  // Aborted when the worker stops: a pair waiting for its thread goes back to the queue.
  const shutdown = new AbortController();
  let refused: string | undefined;
  const process_ = async (job: Job<PairJobData, PairJobResult>, token?: string): Promise<PairJobResult> => {
    const data = job.data;
    if (data?.version !== 1) throw new Error(`job ${job.id}: not a multihop pair of this version (version ${String(data?.version)})`);
    let context: EvalContext;
    let store: ResultStore;
    let checkpoints: CheckpointStore;
    let workflow: EvaluatedWorkflow;
    // The pair goes back to the queue, no attempt spent.
    const requeue = async (): Promise<never> => {
      await job.moveToWait(token);
      throw new WaitingError();
    };
    try {
      await checkEvalDirectory(data.store, data.evalId, async () => (await (await worker.getBackend().client).get(evalAliveKey(data.evalId))) !== null);
      [context, store, checkpoints] = await Promise.all([contextFor(data.eval), storeFor(data.store), checkpointsFor(data.store)]);
      workflow = workflowFor(data.workflow);
      const loaded = context.questions.get(data.questionId);
      if (loaded && data.questionDigest !== undefined && questionDigest(loaded) !== data.questionDigest) {
        throw new ConfigError(
          `question ${data.questionId} of ${data.eval.dataset}, as this worker loads it, differs from the eval's (its text, gold answers or supporting passages): give the worker the same dataset file (MULTIHOP_DATASETS_DIR, or the same --dataset path)`,
        );
      }
    } catch (error) {
      if (!(error instanceof MultihopError)) throw error;
      // This worker cannot serve the eval (another model, a store it cannot reach, a dataset it
      // cannot load): the pair goes back to the queue, no attempt spent, for the other workers,
      // and this worker stops rather than fail pair after pair.
      refused ??= `cannot run the pairs of eval ${data.evalId}: ${error.message}`;
      stop('refusing');
      return requeue();
    }
    const pair: PairContext = { ...context.pair, checkpoints };
    const question = context.questions.get(data.questionId);
    if (!question) throw new Error(`question ${data.questionId} is not in ${data.eval.dataset} as this worker loads it`);
    // The pair's thread is this worker's until it is recorded and forgotten: a worker that takes
    // the pair while another still runs it (a false stall) waits, then resumes from its checkpoints.
    // The lease lasts as long as the job's lock: a worker that dies lets both go after --stalled-after.
    const lease = await holdThread(checkpoints, pairThread(workflow.id, question.id, data.evalId), {
      ttlMs: lockDuration,
      wait: { signal: shutdown.signal, onWait: (holder) => log(`waiting for ${workflow.id} ${question.id} (job ${job.id}): another process runs its thread (${holder.owner})`) },
    }).catch((error: unknown) => {
      // Stopping while waiting: the pair goes back to the queue.
      if (!shutdown.signal.aborted) throw error;
      return requeue();
    });
    try {
      // A worker killed after it recorded the pair (and forgot its thread) but before the queue
      // heard the job was done leaves the job to be retried: the retry finds the pair recorded and
      // runs nothing, rather than pay for every call again to have its result refused.
      const [recordedBefore] = await store.read(data.evalId, [pairKey(workflow.id, question.id)]);
      if (recordedBefore) {
        await settlePair(pair, recordedBefore.row, data.evalId);
        log(`already recorded ${workflow.id} ${question.id} (job ${job.id}, attempt ${job.attemptsStarted}): not run again`);
        return { worker: name, recorded: false };
      }
      log(`started ${workflow.id} ${question.id} (job ${job.id}, attempt ${job.attemptsStarted})`);
      const outcome = await runPair(pair, workflow, question, data.evalId, lease);
      // A worker starved of CPU past --stalled-after has lost the pair to another worker: the other records it.
      if (token && (await job.extendLock(token, lockDuration)) !== 1) {
        throw new Error(`lost the lock of ${workflow.id} ${question.id} (no renewal within ${options.stalledAfter} s): another worker runs it`);
      }
      if (!(await lease.confirm())) throw new Error(`lost the thread of ${workflow.id} ${question.id} (its lease expired unrenewed): another worker runs it`);
      const recorded = await store.record(data.evalId, { ...outcome, worker: name });
      await settlePair(pair, outcome.row, data.evalId);
      log(`${recorded ? 'recorded' : 'already recorded'} ${workflow.id} ${question.id} (job ${job.id})`);
      return { worker: name, recorded };
    } finally {
      await lease.release().catch(() => undefined);
    }
  };

  const { Worker: BullWorker, WaitingError } = require('bullmq') as typeof import('bullmq');
  const worker: Worker<PairJobData, PairJobResult> = new BullWorker(QUEUE_NAME, process_, {
    connection: connectionFor(url),
    name,
    concurrency: options.concurrency,
    ...(options.rateLimit ? { limiter: { max: options.rateLimit.max, duration: options.rateLimit.durationMs } } : {}),
    lockDuration,
    stalledInterval: Math.max(1000, Math.round(lockDuration / 2)),
    maxStalledCount: 2,
    autorun: false,
  });
  worker.on('error', (error) => log(`queue error: ${reason(error)}`));
  worker.on('failed', (job, error) => job && log(`failed ${job.data.workflow.id} ${job.data.questionId} (job ${job.id}, attempt ${job.attemptsMade}): ${reason(error)}`));

  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    if (stopping) return;
    log(`${why}: finishing the pairs in flight`);
    shutdown.abort();
    stopping = worker.close();
  };
  // A second signal stops at once: a graceful close can wait for good (BullMQ finishing a job whose
  // keys a Redis restart emptied). The pairs in flight go back on the queue when their lock lapses,
  // and their threads' checkpoints let the next worker continue them.
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log(`${signal} again: stopping now; the pairs in flight go back on the queue when their lock lapses (--stalled-after), and continue from their checkpoints`);
      process.exit(130);
    }
    signalled = true;
    stop(`${signal} (${signal} again stops at once)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let idleTimer: NodeJS.Timeout | undefined;
  if (options.idleExit !== undefined) {
    const idleMs = options.idleExit * 1000;
    const arm = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop(`idle for ${options.idleExit} s`), idleMs);
    };
    worker.on('active', () => clearTimeout(idleTimer));
    worker.on('drained', arm);
    arm();
  }
  log(`taking pairs from ${redactUrl(url)} (queue ${QUEUE_NAME}), ${options.concurrency} at a time${options.rateLimit ? `, at most ${options.rateLimit.max} per ${options.rateLimit.durationMs} ms across workers` : ''}`);
  try {
    await worker.run();
    await stopping;
  } finally {
    clearTimeout(idleTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const context of contexts.values()) await context.then((c) => c.corpus.close(), () => undefined);
    for (const store of stores.values()) await store.then((s) => s.close(), () => undefined);
    for (const store of checkpointStores.values()) await store.then((s) => s.close(), () => undefined);
  }
  if (refused) {
    log(`${refused}; stopped, its pairs are back on the queue for other workers`);
    return 2;
  }
  log('stopped');
  return 0;
}

/**
 * A results directory as the store is the eval's own only on the eval's machine: there it holds
 * the eval's queue.json. Elsewhere, while the eval is alive, the worker would make the path anew
 * and record where the eval never looks (and the eval would queue the pair again and again): it
 * refuses. A job whose eval is gone (killed, its directory deleted or started afresh) fails for
 * good, and the worker goes on to the next one.
 */
async function checkEvalDirectory(store: StoreSpec, evalId: string, alive: () => Promise<boolean>): Promise<void> {
  if (store.kind !== 'dir') return;
  let id: unknown;
  try {
    id = (JSON.parse(readFileSync(join(store.dir, 'queue.json'), 'utf8')) as { evalId?: unknown }).evalId;
  } catch {
    id = undefined;
  }
  if (id === evalId) return;
  const where = existsSync(store.dir) ? `which holds ${id ? `eval ${String(id)}` : 'no eval'} on this machine` : 'which is not on this machine';
  if (!(await alive())) {
    const { UnrecoverableError } = require('bullmq') as typeof import('bullmq');
    throw new UnrecoverableError(`eval ${evalId} has stopped following its pairs (over ${EVAL_ALIVE_MS / 1000} s ago) and its results directory ${store.dir} is not its own here, ${where}: a job left from it, dropped`);
  }
  throw new ConfigError(
    `the eval records its results in its directory ${store.dir}, ${where}: a worker on another machine needs an eval started with --store postgres://...`,
  );
}

/** What `open` gives for `key`, opened once and shared by every job that needs it; an opening that failed is forgotten, so a later job tries again. */
function openOnce<T>(opened: Map<string, Promise<T>>, key: string, open: () => Promise<T>): Promise<T> {
  let value = opened.get(key);
  if (!value) {
    value = open();
    opened.set(key, value);
    value.catch(() => opened.delete(key));
  }
  return value;
}

async function openContext(spec: EvalSpec, options: WorkerOptions): Promise<EvalContext> {
  const model = modelFor(resolveModel(spec.model, { cacheDir: spec.cacheDir, defaultConcurrency: Math.max(4, options.concurrency) }), spec.roles ? new Set(spec.roles) : undefined);
  const modelId = modelIdOf(model);
  if (modelId !== spec.modelId) {
    throw new ConfigError(`this worker's model is ${modelId}, the eval's is ${spec.modelId}: give the worker the same MULTIHOP_MODEL or multihop.config.json`);
  }
  // The same model id at another endpoint or temperature answers otherwise (an eval queued before fingerprints were sent has none).
  if (spec.fingerprints && JSON.stringify(spec.fingerprints) !== JSON.stringify(model.fingerprints)) {
    throw new ConfigError(
      `this worker's ${modelId} is set up as ${JSON.stringify(model.fingerprints)}, the eval's as ${JSON.stringify(spec.fingerprints)}: give the worker the same OPENAI_BASE_URL and multihop.config.json`,
    );
  }
  const corpus = await openCorpus({ dataset: spec.dataset, setting: spec.setting, db: options.db ?? spec.db, corpus: spec.corpus, layout: spec.layout, skipInvalid: spec.skipInvalid });
  // The gold the eval scores against: the same answer aliases (2Wiki's id_aliases.json beside the dataset), or none.
  const aliases = corpus.dataset.answerAliases?.sha1 ?? null;
  if (spec.answerAliases !== undefined && aliases !== spec.answerAliases) {
    corpus.close();
    throw new ConfigError(
      `this worker's ${spec.dataset} ${aliases ? `gains answer aliases from ${corpus.dataset.answerAliases!.path} (sha1 ${aliases.slice(0, 12)})` : 'has no answer aliases'}, the eval's ${spec.answerAliases ? `has those of sha1 ${spec.answerAliases.slice(0, 12)}` : 'has none'}: give the worker the same id_aliases.json beside the dataset, or none`,
    );
  }
  // The passages the runs search: the worker's copy of the dataset (or --corpus file) must bring the eval's.
  const searched = searchedCorpus(corpus);
  if (spec.searched && (spec.searched.corpus !== searched.corpus || spec.searched.passages !== searched.passages)) {
    corpus.close();
    throw new ConfigError(
      `this worker searches corpus ${searched.corpus} of ${searched.passages} passages, the eval ${spec.searched.corpus} of ${spec.searched.passages}: give the worker the same dataset${spec.corpus ? ' and --corpus' : ''} files`,
    );
  }
  return {
    corpus,
    questions: new Map(corpus.dataset.questions.map((q) => [q.id, q])),
    pair: { model, retrieverFor: (query) => corpus.retrieverFor(query), dataset: corpus.dataset.name, ...(spec.budget ? { budget: spec.budget } : {}) },
  };
}
