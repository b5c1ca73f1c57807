import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireWriterLock, WRITER_LOCK } from './writerLock';
import { runChild } from '../test/child';
import { tempDir } from '../test/sharedData';

describe('the writer lock across processes', () => {
  // Two evals started together right after an ingest killed with -9: both find its stale lock.
  // Only one of them may take it over; the other waits for it. Before the takeover was guarded,
  // 5 of 40 such trials let both processes hold the lock at once; with the child's random pause
  // between reading the holder and deleting it (a process descheduled there), 26 of 40 did.
  it('lets only one of two processes racing for a dead writer’s lock hold it', async () => {
    const trials = 20;
    const base = await tempDir('lock-race');
    const gone = spawn('true');
    await new Promise((r) => gone.on('exit', r));
    const stale = JSON.stringify({ pid: gone.pid, host: hostname(), corpus: 'c', since: 'then' });
    for (let i = 0; i < trials; i++) {
      mkdirSync(join(base, String(i)));
      writeFileSync(join(base, String(i), WRITER_LOCK), stale);
    }
    // Time for both processes to start and load the module before the first trial.
    const startAt = Date.now() + 5_000;
    const args = [base, String(trials), String(startAt), '120', '40'];
    const results = await Promise.all([runChild('lockChild.ts', args), runChild('lockChild.ts', args)]);
    for (const r of results) expect(r.stderr).toBe('');

    const held = new Map<number, Array<{ got: number; left: number }>>();
    for (const line of results.flatMap((r) => r.stdout.trim().split('\n'))) {
      const [trial, , got, left] = line.split(' ').map(Number) as [number, number, number, number];
      held.set(trial, [...(held.get(trial) ?? []), { got, left }]);
    }
    const both = [...held].filter(([, [a, b]]) => a && b && a.got < b.left && b.got < a.left).map(([trial]) => trial);
    expect(held.size).toBe(trials);
    expect([...held.values()].every((h) => h.length === 2)).toBe(true);
    expect(both).toEqual([]);
    // Every lock was released, and no takeover guard or stale copy was left behind.
    for (let i = 0; i < trials; i++) expect(readdirSync(join(base, String(i)))).toEqual([]);
  }, 120_000);

  it('names a lock it cannot read (a directory of that name) instead of retrying it without end', async () => {
    const base = await tempDir('lock-unreadable');
    mkdirSync(join(base, WRITER_LOCK));
    await expect(acquireWriterLock(base, 'c', { waitMs: 60_000, pollMs: 10 })).rejects.toThrow(
      `the corpus store at ${base} has a writer lock ${join(base, WRITER_LOCK)} that this process cannot read (EISDIR); if no ingest is running, delete it`,
    );
  });
});
