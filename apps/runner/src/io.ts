import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '@multihop/core';

/** Where a command writes; tests pass their own to read what a command printed. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

// A reader that closes early (`multihop workflows | head`, `multihop ingest 2>&1 | head`) is not
// an error of the command: exit quietly with the code the command had so far.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw error;
  });
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** An error of the file system (or another system call) as Node reports it. */
export type SystemError = NodeJS.ErrnoException & { code: string };

/** True for Node's system-call errors (`ENOENT`, `EACCES`, `ENOSPC`, ...), which carry an errno code. */
export function isSystemError(error: unknown): error is SystemError {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) && typeof (error as { syscall?: unknown }).syscall === 'string';
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device (disk full)',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the directory is not empty',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  EBUSY: 'the file is busy',
  EIO: 'input/output error',
};

const VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write to',
  mkdir: 'create the directory',
  rename: 'rename',
  unlink: 'delete',
  rmdir: 'delete',
  rm: 'delete',
  scandir: 'list',
  stat: 'read',
  lstat: 'read',
  access: 'write to',
  copyfile: 'copy',
  ftruncate: 'truncate',
  fsync: 'write to',
  close: 'close',
};

/**
 * One line for a system error: what could not be done to which path, and why, e.g.
 * `cannot write to /data/out/results.jsonl: no space left on the device (disk full) (ENOSPC)`.
 */
export function describeSystemError(error: SystemError, path: string | undefined = error.path): string {
  const verb = VERBS[error.syscall ?? ''] ?? error.syscall ?? 'use';
  const reason = REASONS[error.code] ?? (error.message.replace(/^E[A-Z0-9]+: /, '').replace(/, \w+ '.*'$/, '') || 'failed');
  return `cannot ${verb} ${path ?? '(a file)'}: ${reason} (${error.code})`;
}

/**
 * Runs `fn`, which reads or writes `path`, so that a system error it throws names `path`: a
 * write's error (ENOSPC on `write`) carries no path of its own.
 */
export function onPath<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isSystemError(error) && !error.path) error.path = path;
    throw error;
  }
}

/**
 * For a command that keeps what it has done as it goes (a durable thread, rollouts appended per
 * question): until the returned function is called, Ctrl-C prints `message()` (what is kept and
 * how to go on) and exits 130 at once, instead of a silent exit.
 */
export function sayOnInterrupt(io: Io, message: () => string): () => void {
  const onSigint = () => {
    io.err(`\n${message()}`);
    process.exit(130);
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}

/**
 * A directory a command will write into (created later if missing): refused in one line when it
 * is a file, when a part of its path is a file, or when it (or its nearest existing parent) cannot
 * be written. Nothing is created here.
 */
export function writableDir(path: string, flag: string): void {
  if (path.trim() === '') throw new ConfigError(`${flag}: give a directory (an empty path would fill the working directory)`);
  const full = resolve(path);
  for (let at = full; ; at = dirname(at)) {
    let stat;
    try {
      stat = statSync(at);
    } catch (error) {
      if (isSystemError(error) && error.code === 'ENOENT' && dirname(at) !== at) continue;
      throw refused(flag, full, error);
    }
    if (!stat.isDirectory()) {
      throw new ConfigError(
        at === full
          ? `${flag} ${full} is a file, not a directory (ENOTDIR); give a directory (it is created if missing)`
          : `${flag} ${full}: ${at} is a file, not a directory (ENOTDIR)`,
      );
    }
    writable(at, flag, full);
    return;
  }
}

/** `path` can be written (or its nearest existing parent): else a one-line ConfigError naming `flag` and `given`. */
export function writable(path: string, flag: string, given: string = path): void {
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw refused(flag, given, error, path);
  }
}

function refused(flag: string, given: string, error: unknown, path?: string): unknown {
  return isSystemError(error) ? new ConfigError(`${flag} ${given}: ${describeSystemError(error, error.path ?? path ?? given)}`) : error;
}
