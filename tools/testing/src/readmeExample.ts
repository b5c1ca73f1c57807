import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDatasetsDir } from './hotpotDevSample';

/**
 * The first ```ts block under a README's "## Usage" heading. Each package keeps that block
 * identical to its `examples/usage.ts`, so the example a reader copies is one that runs.
 */
export function readmeUsageExample(packageRoot: string): string | undefined {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  return /## Usage\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
}

/** The package's `examples/<name>.ts`, to compare with the README's example. */
export function usageExampleSource(packageRoot: string, name = 'usage'): string {
  return readFileSync(join(packageRoot, 'examples', `${name}.ts`), 'utf8');
}

export interface ExampleRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `examples/<name>.ts` as a plain script, the way a reader would after a build: its own
 * `node` process with the package's directory as working directory, the workspace's sources
 * compiled on require by @multihop/ts-register, the shared datasets in MULTIHOP_DATASETS_DIR.
 * An example asserts its own claims and exits non-zero when one fails.
 */
export function runExample(packageRoot: string, name = 'usage', options: { timeoutMs?: number } = {}): ExampleRun {
  const run = spawnSync(process.execPath, ['-r', require.resolve('@multihop/ts-register'), join('examples', `${name}.ts`)], {
    cwd: packageRoot,
    env: { ...process.env, MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  if (run.error) throw run.error;
  return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}

/** A failed run's message: its exit and everything it printed. */
export const describeRun = (name: string, run: ExampleRun): string =>
  `examples/${name}.ts exited with ${run.signal ?? run.status}\n--- stderr\n${run.stderr}\n--- stdout\n${run.stdout}`;
