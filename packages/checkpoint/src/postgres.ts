import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { ConfigError, type CallJournal, type RecordedCall } from '@multihop/core';
import pg from 'pg';
import { decodeCall, encodeCall, heldElsewhere, TABLES, TABLES_DDL, readableThreads, takeLeaseOnConflict, threadOf, type CheckpointStore, type ThreadRow } from './CheckpointStore';

/** The database's clock in ms since the epoch: leases expire by it, so workers whose clocks differ agree. */
const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** The advisory lock key the store's set-up holds (any fixed 64-bit number; this one spells "mhckpt"). */
const SETUP_LOCK = 0x6d68636b7074;

/** A Postgres URL as messages show it: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * The shared store: LangGraph's PostgresSaver tables and the store's own, in one database
 * (one pool). Workers on several machines resume each other's threads through it.
 */
export async function openPostgresStore(url: string, options: { connectTimeoutMs?: number } = {}): Promise<CheckpointStore> {
  const shown = redactUrl(url);
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000, max: 4 });
  pool.on('error', () => {
    // An idle client's connection dropped; the next query reconnects or fails with its own error.
  });
  const saver = new PostgresSaver(pool);
  try {
    // Workers opening the same database at once would race on LangGraph's migrations and the
    // CREATE TABLEs: one at a time, under an advisory lock held for the set-up.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK]);
      try {
        await saver.setup();
        await client.query(TABLES_DDL);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    const e = error as NodeJS.ErrnoException;
    throw new ConfigError(`checkpoint store ${shown}: cannot be opened (${e.code ? `${e.code}: ` : ''}${e.message || 'no answer'})`);
  }
  let closed = false;
  const calls: CallJournal = {
    async get(threadId, key) {
      const { rows } = await pool.query<{ value: string }>(`SELECT value FROM ${TABLES.calls} WHERE thread_id = $1 AND key = $2`, [threadId, key]);
      return rows[0] ? decodeCall(rows[0].value, `${shown} (thread ${threadId})`) : undefined;
    },
    async put(threadId: string, key: string, call: RecordedCall) {
      await pool.query(
        `INSERT INTO ${TABLES.calls} (thread_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (thread_id, key) DO NOTHING`,
        [threadId, key, encodeCall(call)],
      );
    },
  };
  return {
    location: shown,
    kind: 'postgres',
    saver,
    calls,
    durable(threadId) {
      return { threadId, checkpointer: saver, calls, store: shown };
    },
    async getThread(threadId) {
      const { rows } = await pool.query<ThreadRow>(`SELECT * FROM ${TABLES.threads} WHERE thread_id = $1`, [threadId]);
      return rows[0] ? threadOf(rows[0], shown) : undefined;
    },
    async startThread(threadId, spec) {
      const now = new Date().toISOString();
      await pool.query(
        `INSERT INTO ${TABLES.threads} (thread_id, spec, status, result, created_at, updated_at) VALUES ($1, $2, 'running', NULL, $3, $3)
         ON CONFLICT (thread_id) DO UPDATE SET spec = excluded.spec, status = 'running', result = NULL, updated_at = excluded.updated_at`,
        [threadId, JSON.stringify(spec), now],
      );
    },
    async endThread(threadId, status, result) {
      await pool.query(`UPDATE ${TABLES.threads} SET status = $1, result = $2, updated_at = $3 WHERE thread_id = $4`, [
        status,
        result === undefined ? null : JSON.stringify(result),
        new Date().toISOString(),
        threadId,
      ]);
    },
    async listThreads() {
      const { rows } = await pool.query<ThreadRow>(`SELECT * FROM ${TABLES.threads} ORDER BY updated_at DESC`);
      return readableThreads(rows, shown);
    },
    async deleteThread(threadId) {
      await saver.deleteThread(threadId);
      await pool.query(`DELETE FROM ${TABLES.calls} WHERE thread_id = $1`, [threadId]);
      await pool.query(`DELETE FROM ${TABLES.threads} WHERE thread_id = $1`, [threadId]);
    },
    async acquireLease(threadId, owner, ttlMs) {
      // The database's clock, not the workers': machines whose clocks differ agree on expiry. A
      // row that another transaction wrote or deleted after this statement's snapshot is neither
      // taken nor seen: then it is tried again.
      for (;;) {
        const { rows } = await pool.query<{ owner: string; expires_at: string; held: boolean }>(
          `WITH now AS (SELECT ${DB_NOW_MS} AS ms),
           taken AS (
             INSERT INTO ${TABLES.leases} (thread_id, owner, expires_at) SELECT $1, $2, ms + $3 FROM now
             ${takeLeaseOnConflict('(SELECT ms FROM now)')}
             RETURNING owner, expires_at)
           SELECT owner, expires_at, true AS held FROM taken
           UNION ALL SELECT owner, expires_at, false AS held FROM ${TABLES.leases} WHERE thread_id = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
          [threadId, owner, Math.round(ttlMs)],
        );
        const row = rows[0];
        if (row?.held) return { held: true };
        if (row) return heldElsewhere(row.owner, Number(row.expires_at));
      }
    },
    async renewLease(threadId, owner, ttlMs) {
      const { rowCount } = await pool.query(
        `UPDATE ${TABLES.leases} SET expires_at = ${DB_NOW_MS} + $3 WHERE thread_id = $1 AND owner = $2`,
        [threadId, owner, Math.round(ttlMs)],
      );
      return rowCount === 1;
    },
    async releaseLease(threadId, owner) {
      await pool.query(`DELETE FROM ${TABLES.leases} WHERE thread_id = $1 AND owner = $2`, [threadId, owner]);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
