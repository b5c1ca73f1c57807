import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The shared datasets folder beside the repository root (shared/datasets/README.md). */
export const datasetsDir = resolve(__dirname, '../../../../shared/datasets');

export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `multihop-${prefix}-`));
}
