import { createHash } from 'node:crypto';
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrl } from '@multihop/checkpoint';
import { ConfigError, makeDirectory } from '@multihop/core';
import type { ResultRow } from '../eval/ResultsLog';
import { ANSWER_TIMEOUT_MS, reason } from './redis';

/** Where the workers of one eval record its pairs: the eval's results directory (one machine) or a Postgres table. */
export type StoreSpec = { kind: 'dir'; dir: string } | { kind: 'postgres'; url: string };

/** A recorded pair: its results line, its trace, and the worker that ran it. */
export interface StoredPair {
  row: ResultRow;
  trace: unknown;
  worker: string;
}

/**
 * The results store the workers share. `record` keeps the first result of a pair and refuses
 * every later one (a job retried after its worker was killed, when the killed worker had
 * recorded before dying), so each pair is recorded once whatever the retries.
 */
export interface ResultStore {
  readonly describe: string;
  /** True when this call recorded the pair; false when it was recorded already. */
  record(evalId: string, pair: StoredPair): Promise<boolean>;
  /** The keys (pairKey) of the pairs recorded for the eval. */
  keys(evalId: string): Promise<Set<string>>;
  /** The pairs among these keys that are recorded (keys not recorded yet are left out). */
  read(evalId: string, keys: readonly string[]): Promise<StoredPair[]>;
  /** Drops a recorded pair so it can be run again (a retryable failure being re-run). */
  forget(evalId: string, key: string): Promise<void>;
  close(): Promise<void>;
}

export function pairKey(workflow: string, questionId: string): string {
  return createHash('sha1').update(`${workflow}\u0000${questionId}`).digest('hex').slice(0, 20);
}

/** `postgres://...` or `postgresql://...` for a Postgres store; anything else is refused, naming the option. */
export function parseStoreUrl(text: string, option = '--store'): StoreSpec {
  const value = text.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${option} "${value}" is not a URL; give postgres://USER@HOST:PORT/DATABASE`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${option} "${value}" is not a Postgres URL; give postgres://USER@HOST:PORT/DATABASE (without --store, the results directory is the store, for workers on this machine)`);
  }
  if (!url.hostname) throw new ConfigError(`${option} "${value}" names no host; give postgres://USER@HOST:PORT/DATABASE`);
  return { kind: 'postgres', url: value };
}

export async function openStore(spec: StoreSpec, option = '--store'): Promise<ResultStore> {
  return spec.kind === 'dir' ? new DirStore(spec.dir) : PostgresStore.open(spec.url, option);
}

/**
 * The results directory as the store, for workers on the eval's machine: each pair is one file,
 * `queue/<pair>.json` ({row, trace, worker}), made whole under a temporary name and then linked
 * into place — link fails if the name exists, so the first writer wins and no reader ever sees a
 * torn file. The eval process alone moves them into results.jsonl and traces/.
 */
class DirStore implements ResultStore {
  readonly describe: string;
  private readonly dir: string;

  constructor(out: string) {
    this.dir = join(out, 'queue');
    this.describe = this.dir;
    makeDirectory(join(this.dir, 'tmp'));
  }

  async record(_evalId: string, pair: StoredPair): Promise<boolean> {
    const key = pairKey(pair.row.workflow, pair.row.questionId);
    const temp = join(this.dir, 'tmp', `${key}.${process.pid}.${Date.now()}`);
    writeFileSync(temp, JSON.stringify(pair));
    try {
      linkSync(temp, join(this.dir, `${key}.json`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      rmSync(temp, { force: true });
    }
  }

  async keys(): Promise<Set<string>> {
    if (!existsSync(this.dir)) return new Set();
    return new Set(readdirSync(this.dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)));
  }

  async read(_evalId: string, keys: readonly string[]): Promise<StoredPair[]> {
    if (keys.length === 0) return [];
    const recorded = await this.keys();
    return keys.filter((key) => recorded.has(key)).map((key) => JSON.parse(readFileSync(join(this.dir, `${key}.json`), 'utf8')) as StoredPair);
  }

  async forget(_evalId: string, key: string): Promise<void> {
    try {
      unlinkSync(join(this.dir, `${key}.json`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  async close(): Promise<void> {}
}

const TABLE = 'multihop_eval_results';

/**
 * A Postgres table as the store, for workers on any machine: one row per (eval, workflow,
 * question), the first insert wins (ON CONFLICT DO NOTHING). Row and trace are kept as the JSON
 * text the worker wrote (json text, not jsonb: byte for byte, key order kept).
 */
class PostgresStore implements ResultStore {
  private constructor(
    private readonly pool: import('pg').Pool,
    readonly describe: string,
  ) {}

  static async open(url: string, option: string): Promise<PostgresStore> {
    const { Pool } = require('pg') as typeof import('pg');
    const pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: ANSWER_TIMEOUT_MS });
    pool.on('error', () => undefined);
    const describe = redactUrl(url);
    let client: import('pg').PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new ConfigError(`${option} ${describe}: the Postgres server is not answering or refused the connection (${reason(error)})`);
    }
    try {
      // Two processes creating the table at once would collide in the catalog: one at a time.
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [TABLE]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${TABLE} (eval_id text NOT NULL, pair text NOT NULL, workflow text NOT NULL, question_id text NOT NULL,
           row_json text NOT NULL, trace_json text NOT NULL, worker text NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (eval_id, pair))`,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      await pool.end().catch(() => undefined);
      throw new ConfigError(`${option} ${describe}: cannot create the table ${TABLE} (${reason(error)})`);
    }
    client.release();
    return new PostgresStore(pool, `${describe} (table ${TABLE})`);
  }

  async record(evalId: string, pair: StoredPair): Promise<boolean> {
    const { row } = pair;
    const inserted = await this.pool.query(
      `INSERT INTO ${TABLE} (eval_id, pair, workflow, question_id, row_json, trace_json, worker) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (eval_id, pair) DO NOTHING`,
      [evalId, pairKey(row.workflow, row.questionId), row.workflow, row.questionId, JSON.stringify(row), JSON.stringify(pair.trace), pair.worker],
    );
    return inserted.rowCount === 1;
  }

  async keys(evalId: string): Promise<Set<string>> {
    const result = await this.pool.query<{ pair: string }>(`SELECT pair FROM ${TABLE} WHERE eval_id = $1`, [evalId]);
    return new Set(result.rows.map((r) => r.pair));
  }

  async read(evalId: string, keys: readonly string[]): Promise<StoredPair[]> {
    if (keys.length === 0) return [];
    const result = await this.pool.query<{ row_json: string; trace_json: string; worker: string }>(
      `SELECT row_json, trace_json, worker FROM ${TABLE} WHERE eval_id = $1 AND pair = ANY($2::text[])`,
      [evalId, keys],
    );
    return result.rows.map((r) => ({ row: JSON.parse(r.row_json) as ResultRow, trace: JSON.parse(r.trace_json) as unknown, worker: r.worker }));
  }

  async forget(evalId: string, key: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${TABLE} WHERE eval_id = $1 AND pair = $2`, [evalId, key]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
