import { createHash } from 'node:crypto';
import { MultihopError } from './errors';
import type { ChatMessage } from './model/port';
import type { Evidence, TraceEvent } from './types';
import type { CallUsage } from './usage';

/**
 * A completed model call as a durable run records it: a resumed run that makes the same call
 * again (same node, prompt and messages, same occurrence) gets this back instead of paying for
 * it twice. Unlike the response cache this is scoped to one thread and always on.
 */
export interface RecordedCall {
  output: unknown;
  text: string;
  usage: CallUsage;
  messages?: ChatMessage[];
}

/** Where a durable run's completed model calls are kept, per thread (the checkpoint store's own table). */
export interface CallJournal {
  get(threadId: string, key: string): Promise<RecordedCall | undefined>;
  put(threadId: string, key: string, call: RecordedCall): Promise<void>;
}

/**
 * `RunOptions.durable`: run under a thread whose progress survives the process.
 *
 * - `checkpointer` is a LangGraph `BaseCheckpointSaver` (SQLite, Postgres or memory). LangGraph
 *   workflows compile with it; XState workflows store their persisted snapshots through it.
 *   Either way each checkpoint also carries core's share of the run (RunDelta), so a resumed run
 *   gets back its trace, evidence, draft and usage up to that checkpoint.
 * - `calls` keeps every completed model call of the thread, so work inside a step that was cut
 *   short is not paid for twice when the step runs again.
 *
 * Whether the run starts fresh or resumes is the thread's business: a thread with checkpoints
 * resumes from its latest one; a finished thread returns its result again with no call made.
 */
export interface DurableRunOptions {
  threadId: string;
  /** A LangGraph BaseCheckpointSaver (typed loosely so core does not depend on LangGraph). */
  checkpointer: object;
  calls: CallJournal;
  /**
   * Where the checkpoints are kept (a store's `location`: a file, a redacted URL, `memory`), so a
   * CHECKPOINT error names the store as well as the thread and checkpoint.
   */
  store?: string;
  /**
   * Wall time, in ms, the thread's run had spent when it last ended, if it ended (a finished
   * thread's whole time). The checkpoints hold the time up to the last one; a run stopped at its
   * deadline ends after it, with no checkpoint of that step. A resumed run counts the larger of the
   * two, so a deadline reached stays reached and a finished thread makes no call.
   */
  elapsedMs?: number;
}

/** Core's part of one checkpoint: what the run gained since the previous checkpoint. */
export interface RunDelta {
  /** Trace events since the previous checkpoint, with their original seq and time. */
  events: TraceEvent[];
  /** Evidence added since the previous checkpoint. */
  evidence: Evidence[];
  /** The draft answer at the checkpoint. */
  draft: string;
  /** Hops charged to the budget by the checkpoint. */
  hops: number;
  /**
   * The run's wall time at the checkpoint, in ms, over every process that ran it (the time between
   * a kill and the resumption not counted). Absent in checkpoints of earlier releases.
   */
  elapsedMs?: number;
  /**
   * The run the thread holds (on its first checkpoint): a thread is one run of one workflow on one
   * question, and another run given its id is refused rather than handed this run's result.
   */
  run?: ThreadRun;
}

/** Which run a thread holds: the workflow and the question (id and text). */
export interface ThreadRun {
  workflow: string;
  queryId: string;
  query: string;
}

/** Refuses to continue a thread that holds another run (another workflow, or another question). */
export function checkThreadRun(threadId: string, held: ThreadRun | undefined, now: ThreadRun): void {
  if (!held || (held.workflow === now.workflow && held.queryId === now.queryId && held.query === now.query)) return;
  const describe = (r: ThreadRun) => `${r.workflow} on question ${r.queryId} (${JSON.stringify(r.query.length > 80 ? `${r.query.slice(0, 77)}...` : r.query)})`;
  throw new MultihopError(
    'CHECKPOINT',
    `thread ${threadId} holds a run of ${describe(held)}, not of ${describe(now)}: a thread is one run; give this run a thread id of its own`,
  );
}

/** What an engine adapter sees of a durable run (`ctx.durable`). */
export interface DurableContext {
  readonly threadId: string;
  readonly checkpointer: object;
  /**
   * Core's share of a checkpoint being written now: the events up to `upTo` (the trace length at
   * the step boundary; all of them when omitted) not yet handed to an earlier checkpoint.
   */
  capture(upTo?: number): RunDelta;
  /**
   * Puts back the deltas of the checkpoints a resumed run continues from, oldest first: their
   * events re-enter the trace (and reach listeners), their evidence, draft, hops and model usage
   * count again. Call once, before the engine continues.
   */
  restore(deltas: readonly RunDelta[]): void;
}

/** The journal key of a model call: node, prompt and a digest of the messages sent; the occurrence is appended by the caller. */
export function callKeyOf(node: string, promptId: string, messages: ReadonlyArray<{ role: string; content: string }>): string {
  const digest = createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 24);
  return `${node}|${promptId}|${digest}`;
}

/** A run delta read back from storage, checked field by field (a store written by another version fails here, by name). */
export function parseRunDelta(value: unknown, where: string): RunDelta {
  const v = value as Partial<RunDelta> | null;
  if (!v || typeof v !== 'object' || !Array.isArray(v.events) || !Array.isArray(v.evidence) || typeof v.draft !== 'string' || typeof v.hops !== 'number') {
    throw new MultihopError('CHECKPOINT', `${where}: not a multihop run delta (expected events[], evidence[], draft, hops)`);
  }
  const run = v.run as Partial<ThreadRun> | undefined;
  if (v.elapsedMs !== undefined && !(typeof v.elapsedMs === 'number' && v.elapsedMs >= 0)) throw new MultihopError('CHECKPOINT', `${where}: a run delta's elapsedMs is not a number of milliseconds`);
  if (run !== undefined && (typeof run !== 'object' || run === null || typeof run.workflow !== 'string' || typeof run.queryId !== 'string' || typeof run.query !== 'string')) {
    throw new MultihopError('CHECKPOINT', `${where}: a run delta's run is not { workflow, queryId, query }`);
  }
  return v as RunDelta;
}

/** The checkpoint metadata key under which core's share of the run (a RunDelta) is stored. */
export const RUN_DELTA_KEY = 'multihop_run';

/** The part of a LangGraph checkpoint saver that reading a thread's history needs. */
export interface CheckpointHistory {
  list(config: { configurable: Record<string, unknown> }): AsyncIterable<{
    checkpoint: { id: string };
    metadata?: unknown;
    parentConfig?: { configurable?: Record<string, unknown> };
  }>;
}

/**
 * Core's shares of a thread's checkpoints in one namespace, oldest first, along the latest
 * checkpoint's parent chain (the history a resumed run continues). Checkpoints written by a run
 * that was not durable carry none and are skipped.
 */
export async function deltasOf(saver: CheckpointHistory, threadId: string, checkpointNs = ''): Promise<RunDelta[]> {
  type Tuple = { checkpoint: { id: string }; metadata?: unknown; parentConfig?: { configurable?: Record<string, unknown> } };
  const byId = new Map<string, Tuple>();
  let latest: Tuple | undefined;
  for await (const tuple of saver.list({ configurable: { thread_id: threadId, checkpoint_ns: checkpointNs } })) {
    byId.set(tuple.checkpoint.id, tuple);
    if (!latest || tuple.checkpoint.id > latest.checkpoint.id) latest = tuple;
  }
  const chain: RunDelta[] = [];
  for (let at = latest; at; ) {
    const delta = (at.metadata as Record<string, unknown> | undefined)?.[RUN_DELTA_KEY];
    if (delta !== undefined) chain.push(parseRunDelta(delta, `thread ${threadId}, checkpoint ${at.checkpoint.id}`));
    const parent = at.parentConfig?.configurable?.['checkpoint_id'] as string | undefined;
    at = parent ? byId.get(parent) : undefined;
  }
  return chain.reverse();
}
