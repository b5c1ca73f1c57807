import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CheckpointStore } from './CheckpointStore';
import { openMemoryStore } from './memory';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';

/** Where the store is when nothing says otherwise: beside the project's other run state. */
export const DEFAULT_CHECKPOINTS = join('.multihop', 'checkpoints.sqlite');

const isPostgres = (location: string) => /^postgres(ql)?:\/\//i.test(location);
const isMemory = (location: string) => location === 'memory' || location === ':memory:';

/**
 * Whether opening the store a location names would find one rather than make one: a SQLite file
 * that exists (a server's store, or one in memory, counts as there). For a reader (`resume`), so
 * that a mistyped path is named instead of left behind as a new, empty store.
 */
export function checkpointStoreExists(location: string = DEFAULT_CHECKPOINTS, options: { cwd?: string } = {}): boolean {
  if (isPostgres(location) || isMemory(location)) return true;
  return existsSync(options.cwd ? resolve(options.cwd, location) : location);
}

/**
 * Opens the checkpoint store a location names: `postgres://…` / `postgresql://…` (shared, for
 * several processes or machines), `memory` / `:memory:` (this process only), anything else a
 * SQLite file path (created with its directory; default `.multihop/checkpoints.sqlite`).
 */
export async function openCheckpointStore(location: string = DEFAULT_CHECKPOINTS, options: { cwd?: string } = {}): Promise<CheckpointStore> {
  if (isPostgres(location)) return openPostgresStore(location);
  if (isMemory(location)) return openMemoryStore();
  return openSqliteStore(options.cwd ? resolve(options.cwd, location) : location);
}
