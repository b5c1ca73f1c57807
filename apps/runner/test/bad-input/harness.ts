import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';

/**
 * The bad-input suite's harness: the real `multihop` bin in a child process, as a newcomer's shell
 * runs it. Each test file registers the kinds of bad input or fault it covers with `kind()`, so
 * the suite's catalogue (kinds.test.ts) can count them and their verdicts.
 */

/**
 * How the CLI answered this kind before the fix (issue 16's audit), `clear` for the kinds that
 * were already fine, `new` for a command added after the audit (the router's).
 */
export type Before = 'clear' | 'unclear' | 'crash' | 'silent-wrong' | 'data-lost' | 'new';

export interface Kind {
  /** Short stable id, `area/what` (`rollouts/out-exists`). */
  id: string;
  before: Before;
  /** One line: the input or fault. */
  what: string;
}

const BIN = join(__dirname, '..', '..', 'bin', 'multihop.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Working directory (default: a fresh temporary directory). */
  cwd?: string;
  /** Extra environment; `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then closed (default: stdin closed at once). */
  input?: string;
  /** Kill the child after this many ms (default 300 s), a test's guard against a hang, not an assertion; its stderr then says so. */
  killAfterMs?: number;
  /** Called once with the child, e.g. to send SIGINT when some output appears. */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

/** A fresh directory for one case. */
export function scratch(prefix = 'bad-input-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Runs `multihop <args>` from source in a child process, with the shared datasets, the offline
 * model, and no config file or model variables inherited from the caller's environment.
 */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(MULTIHOP_|OPENAI_)/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, { MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), MULTIHOP_FROM_SOURCE: '1', LANCEDB_LOG: 'error', NO_COLOR: '1' });
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? scratch(), env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  options.onSpawn?.(child);
  const guardMs = options.killAfterMs ?? 300_000;
  let guarded = false;
  const guard = setTimeout(() => ((guarded = true), child.kill('SIGKILL')), guardMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      // A child the guard killed says so, so a failure on its `signal` is not a mystery.
      resolve({ code, signal, stdout, stderr: guarded ? `${stderr}\n[the test harness killed this child after ${guardMs / 1000} s: it had not ended]\n` : stderr });
    });
  });
}

/** True when `text` carries a JavaScript stack trace (`    at fn (file:line:col)`). */
export function hasStack(text: string): boolean {
  return /^\s+at .+[:(].*\d+:\d+\)?$/m.test(text);
}

/** Looks a kind up in the catalogue and returns the test's name (`id: what`); an id not catalogued is an error. */
export function kind(id: string): string {
  // Loaded lazily: the catalogue imports this file's types.
  const { CATALOGUE } = require('./catalogue') as typeof import('./catalogue');
  const found = CATALOGUE.find((k) => k.id === id);
  if (!found) throw new Error(`bad-input kind "${id}" is not in apps/runner/test/bad-input/catalogue/`);
  return `${found.id}: ${found.what}`;
}
