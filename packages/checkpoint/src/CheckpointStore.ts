import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { MultihopError, type CallJournal, type DurableRunOptions, type RecordedCall } from '@multihop/core';

/** What a thread was started with and how it ended, as the store keeps it (the caller's JSON). */
export interface ThreadRecord {
  threadId: string;
  /** The caller's description of the run (the runner keeps the command's options here). */
  spec: unknown;
  status: ThreadStatus;
  /** The run's result once it ended, as the caller stored it. */
  result?: unknown;
  createdAt: string;
  updatedAt: string;
}

export type ThreadStatus = 'running' | 'done' | 'error';

/** Who holds a thread's lease, and until when (ISO time) unless they renew it. */
export interface LeaseHolder {
  owner: string;
  expiresAt: string;
}

/** A thread's lease as the store has it after an attempt to take it. */
export type LeaseState = { held: true } | ({ held: false } & LeaseHolder);

/** The state of a lease another owner holds until `expiresAtMs` (ms since the epoch): what every store reports. */
export function heldElsewhere(owner: string, expiresAtMs: number): LeaseState {
  return { held: false, owner, expiresAt: new Date(expiresAtMs).toISOString() };
}

/**
 * The clause both SQL stores take a lease with: an insert that replaces the row only when the
 * same owner renews it or its lease has expired by `now` (an SQL expression of ms since the epoch).
 */
export const takeLeaseOnConflict = (now: string): string =>
  `ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE ${TABLES.leases}.owner = excluded.owner OR ${TABLES.leases}.expires_at <= ${now}`;

/**
 * One place where durable runs keep their progress: LangGraph checkpoints (`saver`, which the
 * XState adapter also stores snapshots through), each thread's completed model calls (`calls`)
 * and each thread's record (`threads`). SQLite, Postgres and memory stores behave the same.
 */
export interface CheckpointStore {
  /** Which store this is, for messages: the SQLite file, the Postgres URL without its password, or `memory`. */
  readonly location: string;
  readonly kind: 'sqlite' | 'postgres' | 'memory';
  /** LangGraph's checkpoint saver over this store. */
  readonly saver: BaseCheckpointSaver;
  /** Completed model calls per thread. */
  readonly calls: CallJournal;
  /** `RunOptions.durable` for a run under `threadId` in this store. */
  durable(threadId: string): DurableRunOptions;
  getThread(threadId: string): Promise<ThreadRecord | undefined>;
  /** Records (or re-records) a thread as running with `spec`; a thread's creation time is kept. */
  startThread(threadId: string, spec: unknown): Promise<void>;
  /** Records how a thread's run ended. */
  endThread(threadId: string, status: Exclude<ThreadStatus, 'running'>, result?: unknown): Promise<void>;
  /** Every thread, most recently updated first. */
  listThreads(): Promise<ThreadRecord[]>;
  /** Removes a thread: its checkpoints, its calls and its record. */
  deleteThread(threadId: string): Promise<void>;
  /**
   * Takes the thread's lease for `owner` until `ttlMs` from now, when nobody holds it, its holder
   * let it expire, or `owner` holds it already (then it is extended). One atomic statement, so
   * of two processes racing for a thread exactly one gets it. Postgres counts time by the
   * database's clock (workers on several machines), SQLite and memory by this machine's.
   */
  acquireLease(threadId: string, owner: string, ttlMs: number): Promise<LeaseState>;
  /** Extends `owner`'s lease by `ttlMs` from now; false when it no longer holds it. */
  renewLease(threadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `owner` holds it. */
  releaseLease(threadId: string, owner: string): Promise<void>;
  close(): Promise<void>;
}

/** The store's own tables, beside LangGraph's checkpoint tables in the same database (a store written before leases gains its table on open). */
export const TABLES = {
  calls: 'multihop_calls',
  threads: 'multihop_threads',
  leases: 'multihop_leases',
} as const;

/**
 * The columns each table of a checkpoint store has: the store's own and LangGraph's (SqliteSaver's
 * `checkpoints` and `writes`). A file whose tables are other than these is someone else's database.
 */
export const STORE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  [TABLES.calls]: ['thread_id', 'key', 'value'],
  [TABLES.threads]: ['thread_id', 'spec', 'status', 'result', 'created_at', 'updated_at'],
  [TABLES.leases]: ['thread_id', 'owner', 'expires_at'],
  checkpoints: ['thread_id', 'checkpoint_ns', 'checkpoint_id', 'parent_checkpoint_id', 'type', 'checkpoint', 'metadata'],
  writes: ['thread_id', 'checkpoint_ns', 'checkpoint_id', 'task_id', 'idx', 'channel', 'type', 'value'],
};

/**
 * Why a database with these tables (name → its columns) is not a checkpoint store, or undefined
 * when it is one (or empty): a table of another name, or one of the store's names with other columns.
 */
export function foreignTables(tables: ReadonlyMap<string, readonly string[]>): string | undefined {
  const others = [...tables.keys()].filter((name) => !(name in STORE_COLUMNS));
  if (others.length) return `its tables (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', ...' : ''}) are not a checkpoint store's`;
  for (const [name, columns] of tables) {
    const missing = STORE_COLUMNS[name]!.filter((c) => !columns.includes(c));
    if (missing.length) return `its table ${name} has no column ${missing.join(', ')}, so it is not a checkpoint store's`;
  }
  return undefined;
}

/** Their definitions, the same text in SQLite and Postgres. */
export const TABLES_DDL = `
  CREATE TABLE IF NOT EXISTS ${TABLES.calls} (thread_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (thread_id, key));
  CREATE TABLE IF NOT EXISTS ${TABLES.threads} (thread_id TEXT PRIMARY KEY, spec TEXT NOT NULL, status TEXT NOT NULL, result TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS ${TABLES.leases} (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL);`;

/** A row of the threads table, as both SQL backends return it. */
export interface ThreadRow {
  thread_id: string;
  spec: string;
  status: string;
  result: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A thread's record from its row; a column that is not the JSON the store wrote (a damaged file,
 * a hand edit) is a STORE_DAMAGED error naming the store, the thread and the column.
 */
export function threadOf(row: ThreadRow, location: string): ThreadRecord {
  const json = (column: 'spec' | 'result', text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new MultihopError('STORE_DAMAGED', `checkpoint store ${location}: thread "${row.thread_id}" has a ${column} that is not JSON (${(error as Error).message}); the store is damaged or was edited: give the run another thread id, or another --checkpoints store`, { cause: error });
    }
  };
  return {
    threadId: row.thread_id,
    spec: json('spec', row.spec),
    status: row.status as ThreadStatus,
    ...(row.result !== null ? { result: json('result', row.result) } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The threads a listing can read, newest first: a damaged row is left out, not the whole listing. */
export function readableThreads(rows: readonly ThreadRow[], location: string): ThreadRecord[] {
  return rows.flatMap((row) => {
    try {
      return [threadOf(row, location)];
    } catch {
      return [];
    }
  });
}

/** A journal entry as stored: JSON text. */
export function encodeCall(call: RecordedCall): string {
  return JSON.stringify(call);
}

export function decodeCall(text: string, where: string): RecordedCall {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MultihopError('CHECKPOINT', `${where}: a recorded model call is not JSON (${(error as Error).message})`);
  }
  const call = value as Partial<RecordedCall> | null;
  if (!call || typeof call !== 'object' || typeof call.text !== 'string' || !call.usage || typeof call.usage !== 'object') {
    throw new MultihopError('CHECKPOINT', `${where}: a recorded model call lacks text or usage`);
  }
  return call as RecordedCall;
}
