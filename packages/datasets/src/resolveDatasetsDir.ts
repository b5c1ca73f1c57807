import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '@multihop/core';

/**
 * Finds the shared datasets folder: `MULTIHOP_DATASETS_DIR` if set, else the first
 * `<dir>/shared/datasets` or `<dir>/../shared/datasets` walking up from `from` (the project keeps
 * the data beside the repository, so a clone at any depth finds it). The error lists every path tried.
 */
export interface ResolveDatasetsDirOptions {
  /** Where the walk starts (default: the working directory). */
  from?: string;
  env?: NodeJS.ProcessEnv;
  /** Do not walk above this directory (default: the filesystem root). */
  stopAt?: string;
}

export function resolveDatasetsDir(options: ResolveDatasetsDirOptions = {}): string {
  const env = options.env ?? process.env;
  const configured = env.MULTIHOP_DATASETS_DIR;
  if (configured) {
    const dir = resolve(configured);
    if (isDir(dir)) return dir;
    throw new ConfigError(`MULTIHOP_DATASETS_DIR=${configured} is not a directory (resolved to ${dir})`);
  }
  const tried: string[] = [];
  let dir = resolve(options.from ?? process.cwd());
  for (;;) {
    const atStop = options.stopAt !== undefined && dir === resolve(options.stopAt);
    const candidates = atStop ? [join(dir, 'shared', 'datasets')] : [join(dir, 'shared', 'datasets'), join(dir, '..', 'shared', 'datasets')];
    for (const candidate of candidates) {
      const abs = resolve(candidate);
      if (tried.includes(abs)) continue;
      tried.push(abs);
      if (isDir(abs)) return abs;
    }
    const parent = dirname(dir);
    if (parent === dir || atStop) break;
    dir = parent;
  }
  throw new ConfigError(
    `shared datasets folder not found: set MULTIHOP_DATASETS_DIR, or place it at one of: ${tried.join(', ')}`,
  );
}

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
