import { join, resolve } from 'node:path';
import type { CheckpointStore } from './CheckpointStore';
import { openMemoryStore } from './memory';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';

/** Where the store is when nothing says otherwise: beside the project's other run state. */
export const DEFAULT_CHECKPOINTS = join('.multihop', 'checkpoints.sqlite');

/**
 * Opens the checkpoint store a location names: `postgres://…` / `postgresql://…` (shared, for
 * several processes or machines), `memory` / `:memory:` (this process only), anything else a
 * SQLite file path (created with its directory; default `.multihop/checkpoints.sqlite`).
 */
export async function openCheckpointStore(location: string = DEFAULT_CHECKPOINTS, options: { cwd?: string } = {}): Promise<CheckpointStore> {
  if (/^postgres(ql)?:\/\//i.test(location)) return openPostgresStore(location);
  if (location === 'memory' || location === ':memory:') return openMemoryStore();
  return openSqliteStore(options.cwd ? resolve(options.cwd, location) : location);
}
