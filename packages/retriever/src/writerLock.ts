import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeDirectory, processAlive } from '@multihop/core';
import { CorpusStoreBusyError } from './errors';

/** The lock file a local store's writer holds while it ingests. */
export const WRITER_LOCK = '.multihop-writer.lock';

interface Holder {
  pid: number;
  host: string;
  corpus: string;
  since: string;
}

export interface WriterLockOptions {
  /** How long to wait for another writer (ms). */
  waitMs: number;
  /** Told once when the lock is held by another live process, and once when a dead one's lock is taken over. */
  notice?: (text: string) => void;
  /** Poll interval (ms). */
  pollMs?: number;
}

/**
 * Takes the writer lock of a local store directory: one ingest writes at a time, so two processes
 * ingesting the same corpus (two evals started together) do not both create its tables and fail.
 * A lock whose process is gone (killed with -9) is taken over; one held by a live process is waited
 * for. Returns the release function.
 */
export async function acquireWriterLock(dir: string, corpus: string, options: WriterLockOptions): Promise<() => void> {
  makeDirectory(dir);
  const file = join(dir, WRITER_LOCK);
  const me: Holder = { pid: process.pid, host: hostname(), corpus, since: new Date().toISOString() };
  const started = Date.now();
  let told = false;
  let toldStale = false;
  for (;;) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      return () => {
        try {
          if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
        } catch {
          // Gone already.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      // Released in between: try again at once. Anything else (a directory of that name, a lock
      // another user's process wrote and this one may not read) would only repeat: say so.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new CorpusStoreBusyError(
        `the corpus store at ${dir} has a writer lock ${file} that this process cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ` +
          `if no ingest is running, delete it`,
      );
    }
    const holder = parseHolder(text);
    // A lock just created may not hold its text yet: only an old unreadable one counts as stale.
    if (!holder && ageMs(file) < 5_000) {
      await new Promise((r) => setTimeout(r, options.pollMs ?? 200));
      continue;
    }
    if (!holder || !alive(holder)) {
      // A writer killed mid-ingest (or a lock file cut short): the next ingest drops or restores
      // what it left (see CorpusStore), so the lock is taken over.
      if (!toldStale) {
        options.notice?.(
          `the corpus store at ${dir} has the writer lock of process ${holder?.pid ?? '(unknown)'}, which no longer runs (killed during an ingest?); taking it over`,
        );
      }
      toldStale = true;
      if (!removeStale(file, text, me)) await new Promise((r) => setTimeout(r, options.pollMs ?? 200));
      continue;
    }
    if (!told) {
      told = true;
      options.notice?.(`waiting for process ${holder.pid}, which has been writing corpus "${holder.corpus}" to the corpus store at ${dir} since ${holder.since}`);
    }
    if (Date.now() - started >= options.waitMs) {
      throw new CorpusStoreBusyError(
        `the corpus store at ${dir} is still being written by process ${holder.pid} (corpus "${holder.corpus}", since ${holder.since}) after waiting ${Math.round(options.waitMs / 1000)} s; ` +
          `wait for it to finish, or if no such process runs, delete ${file}`,
      );
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 200));
  }
}

/**
 * Deletes a stale lock file, if it still holds `staleText`. Two processes that both read the dead
 * holder must not both delete: the second one's delete would remove the lock the first had just
 * taken, and both would write. So the check and the delete happen only under a second lock
 * (`<lock>.takeover`, created exclusively, held for a few file operations): whoever holds it reads
 * the lock again, and deletes it only if it is still the dead holder's. False when another process
 * is taking over right now (poll again).
 */
function removeStale(file: string, staleText: string, me: Holder): boolean {
  const guard = `${file}.takeover`;
  try {
    writeFileSync(guard, JSON.stringify(me), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A process killed while holding the guard (a window of a few file operations) would block
    // every writer: a guard whose process is gone, or unreadable for long, is removed.
    const text = readText(guard);
    const holder = text === undefined ? undefined : parseHolder(text);
    if (text !== undefined && (holder ? !alive(holder) : ageMs(guard) >= 5_000)) rmSync(guard, { force: true });
    return false;
  }
  try {
    if (readText(file) === staleText) rmSync(file, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Whether a live process (or one on another machine) holds the writer lock of a local store directory. */
export function writerActive(dir: string): boolean {
  const holder = readHolder(join(dir, WRITER_LOCK));
  return holder !== undefined && alive(holder);
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readHolder(file: string): Holder | undefined {
  const text = readText(file);
  return text === undefined ? undefined : parseHolder(text);
}

function parseHolder(text: string): Holder | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, host: String(parsed.host ?? ''), corpus: String(parsed.corpus ?? '?'), since: String(parsed.since ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

function alive(holder: Holder): boolean {
  // A process of another machine (a shared directory) cannot be checked: it counts as alive.
  if (holder.host && holder.host !== hostname()) return true;
  return processAlive(holder.pid);
}
