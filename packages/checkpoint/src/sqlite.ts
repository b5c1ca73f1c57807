import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { ConfigError, makeDirectory, MultihopError, type CallJournal, type RecordedCall } from '@multihop/core';
import { decodeCall, encodeCall, foreignTables, heldElsewhere, TABLES, TABLES_DDL, readableThreads, takeLeaseOnConflict, threadOf, type CheckpointStore, type ThreadRow } from './CheckpointStore';

/** The part of better-sqlite3's Database this store uses. */
interface Database {
  pragma(source: string): unknown;
  exec(source: string): unknown;
  prepare(source: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  close(): void;
}

/** An existing SQLite database that is not a checkpoint store (see foreignTables). */
class ForeignDatabase extends Error {}

/** How long a write waits for another connection's write lock before SQLite gives up. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * SQLite's bare "database is locked" (SQLITE_BUSY after the busy timeout), said with the store and
 * the likely cause; a file found damaged mid-use (SQLITE_CORRUPT, SQLITE_NOTADB), said with the store.
 */
function lockedError(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return new MultihopError(
      'STORE_DAMAGED',
      `checkpoint store ${path}: the file is damaged (SQLite: ${(error as Error).message}); its threads cannot be read or continued: give the run another --checkpoints file (sqlite3's .recover may save what is left of this one)`,
      { cause: error },
    );
  }
  if (code !== 'SQLITE_BUSY') return error;
  return new MultihopError(
    'STORE_LOCKED',
    `checkpoint store ${path}: another process has held its write lock for over ${BUSY_TIMEOUT_MS / 1000} s (SQLite: database is locked); ` +
      'a process using this file is stopped (Ctrl-Z) or hung inside a write: let it go on (fg) or end it, or give this run another checkpoint file',
    { cause: error },
  );
}

/**
 * The connection, with SQLITE_BUSY from any statement (the store's own and LangGraph's
 * SqliteSaver's, transactions included) thrown as `lockedError` names it.
 */
function namingLocks(db: Database, path: string): Database {
  const guarded =
    <F extends (...args: never[]) => unknown>(fn: F, self: unknown) =>
    (...args: Parameters<F>): ReturnType<F> => {
      try {
        return fn.apply(self, args) as ReturnType<F>;
      } catch (error) {
        throw lockedError(path, error);
      }
    };
  const RUNS = new Set<PropertyKey>(['run', 'get', 'all', 'iterate']);
  const statement = <S extends object>(target: S): S =>
    new Proxy(target, {
      get(s, key) {
        const value = Reflect.get(s, key, s) as unknown;
        return typeof value === 'function' && RUNS.has(key) ? guarded(value as (...args: never[]) => unknown, s) : value;
      },
    });
  return new Proxy(db, {
    get(d, key) {
      const value = Reflect.get(d, key, d) as unknown;
      if (typeof value !== 'function') return value;
      const fn = value as (...args: never[]) => unknown;
      if (key === 'prepare') return (...args: never[]) => statement(fn.apply(d, args) as object);
      if (key === 'transaction') return (body: never) => guarded(fn.call(d, body) as (...args: never[]) => unknown, undefined);
      return guarded(fn, d);
    },
  });
}

/**
 * The error for a better-sqlite3 whose native addon does not load. Its install script builds or
 * fetches the addon; npm 12 skips the install scripts of the dependencies a project's
 * `allowScripts` does not list, and a Node.js upgrade leaves an addon built for another version.
 * The store file is not at fault either way, so this says how to build the addon, never to
 * delete the file.
 */
export function addonError(error: unknown): MultihopError {
  // On one line, without the list of paths the bindings helper tried (kept in the cause); Node's
  // "compiled against a different Node.js version" runs over three lines.
  const said = ((error as Error | null)?.message ?? String(error)).split(/\s*Tried:/)[0]!.replace(/\s*\n\s*/g, ' ').trim();
  return new MultihopError(
    'SQLITE_ADDON',
    `better-sqlite3's native addon cannot be loaded, so no SQLite checkpoint store can be opened (${said}). ` +
      'Its install script builds it, and npm 12 runs a dependency\'s install script only when the project allows it: ' +
      'add it to your package.json (npm pkg set allowScripts.better-sqlite3=true --json), then run npm rebuild better-sqlite3 ' +
      '(after a Node.js upgrade, the rebuild alone). Or give a postgres:// location',
    { cause: error },
  );
}

type SqliteConstructor = new (file: string) => Database;
let loaded: SqliteConstructor | undefined;

/**
 * better-sqlite3's Database, its addon checked once per process on an in-memory database (a
 * loaded addon stays loaded). A test that substitutes the module must do so in a fresh module
 * registry (`jest.isolateModules`), as sqlite.test.ts does.
 */
function sqliteDatabase(): SqliteConstructor {
  if (loaded) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const BetterSqlite = require('better-sqlite3') as SqliteConstructor;
  try {
    new BetterSqlite(':memory:').close();
  } catch (error) {
    throw addonError(error);
  }
  return (loaded = BetterSqlite);
}

/**
 * The embedded store: one SQLite file holds LangGraph's checkpoint tables (SqliteSaver) and the
 * store's own tables, on one connection in WAL mode (a reader never blocks the writer).
 */
export function openSqliteStore(file: string): CheckpointStore {
  const path = resolve(file);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError(`checkpoint store ${path}: is a directory; give a file path (e.g. ${path}/checkpoints.sqlite)`);
  }
  // Before anything is made on disk: without the addon no store can be opened.
  const BetterSqlite = sqliteDatabase();
  try {
    makeDirectory(dirname(path));
  } catch (error) {
    throw new ConfigError(`checkpoint store ${path}: cannot create its directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let db: Database | undefined;
  try {
    db = namingLocks(new BetterSqlite(path), path);
    // First, so that processes opening the same file at once (queue workers) wait for each other.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Another program's database given by mistake is refused before anything is written to it.
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((t) => t.name);
    const tables = new Map(names.map((name) => [name, (db!.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>).map((c) => c.name)]));
    const foreign = foreignTables(tables);
    if (foreign) throw new ForeignDatabase(foreign);
    db.pragma('journal_mode = WAL');
    // A committed checkpoint survives the process being killed; NORMAL skips the fsync per commit
    // that only a power cut would need (WAL keeps the file consistent either way).
    db.pragma('synchronous = NORMAL');
    db.exec(TABLES_DDL);
  } catch (error) {
    db?.close();
    // A file of the user's given by mistake: nothing here says it may be deleted.
    if (error instanceof ForeignDatabase) {
      throw new ConfigError(`checkpoint store ${path}: is a SQLite database, but ${error.message}; it is left as it was: give another --checkpoints path`);
    }
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') {
      throw new ConfigError(`checkpoint store ${path}: is not a SQLite file (${(error as Error).message}), so it holds no checkpoints; it is left as it was: give another --checkpoints path`);
    }
    throw new ConfigError(`checkpoint store ${path}: cannot be opened as SQLite (${(error as Error).message}); give another --checkpoints path, or delete it if it is a checkpoint store you no longer need`);
  }
  const saver = new SqliteSaver(db as never);
  const getCall = db.prepare(`SELECT value FROM ${TABLES.calls} WHERE thread_id = ? AND key = ?`);
  // A recorded reply is never replaced: a process that lost the thread and writes late leaves the holder's.
  const putCall = db.prepare(`INSERT OR IGNORE INTO ${TABLES.calls} (thread_id, key, value) VALUES (?, ?, ?)`);
  const getThread = db.prepare(`SELECT * FROM ${TABLES.threads} WHERE thread_id = ?`);
  const startThread = db.prepare(
    `INSERT INTO ${TABLES.threads} (thread_id, spec, status, result, created_at, updated_at) VALUES (?, ?, 'running', NULL, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET spec = excluded.spec, status = 'running', result = NULL, updated_at = excluded.updated_at`,
  );
  const endThread = db.prepare(`UPDATE ${TABLES.threads} SET status = ?, result = ?, updated_at = ? WHERE thread_id = ?`);
  const listThreads = db.prepare(`SELECT * FROM ${TABLES.threads} ORDER BY updated_at DESC`);
  const deleteCalls = db.prepare(`DELETE FROM ${TABLES.calls} WHERE thread_id = ?`);
  const deleteThread = db.prepare(`DELETE FROM ${TABLES.threads} WHERE thread_id = ?`);
  const takeLease = db.prepare(
    `INSERT INTO ${TABLES.leases} (thread_id, owner, expires_at) VALUES (?, ?, ?)
     ${takeLeaseOnConflict('?')}`,
  );
  const getLease = db.prepare(`SELECT owner, expires_at FROM ${TABLES.leases} WHERE thread_id = ?`);
  const renewLease = db.prepare(`UPDATE ${TABLES.leases} SET expires_at = ? WHERE thread_id = ? AND owner = ?`);
  const releaseLease = db.prepare(`DELETE FROM ${TABLES.leases} WHERE thread_id = ? AND owner = ?`);
  let closed = false;

  const calls: CallJournal = {
    async get(threadId, key) {
      const row = getCall.get(threadId, key) as { value: string } | undefined;
      return row ? decodeCall(row.value, `${path} (thread ${threadId})`) : undefined;
    },
    async put(threadId: string, key: string, call: RecordedCall) {
      putCall.run(threadId, key, encodeCall(call));
    },
  };
  return {
    location: path,
    kind: 'sqlite',
    saver,
    calls,
    durable(threadId) {
      return { threadId, checkpointer: saver, calls, store: path };
    },
    async getThread(threadId) {
      const row = getThread.get(threadId) as ThreadRow | undefined;
      return row ? threadOf(row, path) : undefined;
    },
    async startThread(threadId, spec) {
      const now = new Date().toISOString();
      startThread.run(threadId, JSON.stringify(spec), now, now);
    },
    async endThread(threadId, status, result) {
      endThread.run(status, result === undefined ? null : JSON.stringify(result), new Date().toISOString(), threadId);
    },
    async listThreads() {
      return readableThreads(listThreads.all() as ThreadRow[], path);
    },
    async deleteThread(threadId) {
      // The saver makes its tables on its first read or write, and its deleteThread is neither: a thread that never ran a step may come first.
      await saver.getTuple({ configurable: { thread_id: threadId } });
      await saver.deleteThread(threadId);
      deleteCalls.run(threadId);
      deleteThread.run(threadId);
    },
    async acquireLease(threadId, owner, ttlMs) {
      // A lease released between the two statements leaves no row to report: take it again.
      for (;;) {
        const now = Date.now();
        if ((takeLease.run(threadId, owner, now + ttlMs, now) as { changes: number }).changes === 1) return { held: true };
        const row = getLease.get(threadId) as { owner: string; expires_at: number } | undefined;
        if (row) return heldElsewhere(row.owner, Number(row.expires_at));
      }
    },
    async renewLease(threadId, owner, ttlMs) {
      return (renewLease.run(Date.now() + ttlMs, threadId, owner) as { changes: number }).changes === 1;
    },
    async releaseLease(threadId, owner) {
      releaseLease.run(threadId, owner);
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

