import { existsSync, readFileSync, truncateSync } from 'node:fs';
import { InputError } from '@multihop/core';

/**
 * Reads an append-only JSONL log. A line torn by a kill mid-write (the tail after the last
 * newline) is cut off the file, so the entry it held is simply produced again; a line that is
 * not JSON, or lacks one of `required`, is an error naming the file, the line and the field.
 * A reader that must not write (the studio, a report of a running eval) passes `repair: false`:
 * the torn tail is then only left out.
 */
export function readJsonlLog<T>(file: string, required: readonly (keyof T & string)[], options: { repair?: boolean } = {}): T[] {
  const log = checkJsonlLog<T>(file, required);
  if (options.repair !== false) log.repair();
  return log.rows;
}

/**
 * Reads and checks a JSONL log (as readJsonlLog) without writing to it: `repair()` cuts the torn
 * tail off afterwards, for a writer that must check everything before it writes anything.
 */
export function checkJsonlLog<T>(file: string, required: readonly (keyof T & string)[]): { rows: T[]; torn: string; repair(): void } {
  if (!existsSync(file)) return { rows: [], torn: '', repair: () => {} };
  const raw = readFileSync(file, 'utf8');
  const complete = raw.lastIndexOf('\n') + 1;
  const rows: T[] = [];
  raw
    .slice(0, complete)
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let row: T;
      try {
        row = JSON.parse(line) as T;
      } catch (error) {
        throw new InputError(`${file}:${i + 1}: not a JSON line (${(error as Error).message})`, { file, line: i + 1 });
      }
      for (const field of required) {
        if (row[field] === undefined || row[field] === null) throw new InputError(`${file}:${i + 1}: field ${field} is missing`, { file, line: i + 1, field });
      }
      rows.push(row);
    });
  return {
    rows,
    // The text after the last newline: a line a kill tore mid-write (empty when the log ends whole).
    torn: raw.slice(complete),
    repair: () => {
      if (complete < raw.length) truncateSync(file, Buffer.byteLength(raw.slice(0, complete)));
    },
  };
}

/**
 * Runs `task` over `items`, `concurrency` at a time, until `stopped()` says so. A task that
 * throws stops the scheduling; the tasks in flight finish, then the first error is thrown.
 */
export async function runPool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!stopped() && failure === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, items.length)) }, worker));
  if (failure) throw failure.error;
}
