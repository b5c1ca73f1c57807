// A process racing another for the writer lock of <trials> store directories, <base>/0 … <base>/<trials-1>,
// each holding the stale lock of a dead process: trial i starts at <startAt> + i × <periodMs> (both
// processes busy-wait for that instant), takes the lock, holds it <holdMs>, releases it, and prints
// `<trial> <pid> <got> <left>` (ms since the epoch) on stdout.
//   node -r @multihop/ts-register test/lockChild.ts <base> <trials> <startAt> <periodMs> <holdMs>
import { join } from 'node:path';
import { acquireWriterLock } from '../src/writerLock';

function pause(): void {
  const until = Date.now() + Math.random() * 10;
  while (Date.now() < until) {
    // Busy: a synchronous callback cannot sleep.
  }
}

async function main(): Promise<void> {
  const [base, trials, startAt, periodMs, holdMs] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a))) as [string, number, number, number, number];
  for (let i = 0; i < trials; i++) {
    const at = startAt + i * periodMs;
    while (Date.now() < at) {
      // Busy-wait: both processes must reach the stale lock at the same instant.
    }
    // The notice comes between reading the stale holder and taking the lock over: a random pause
    // there stands for a process descheduled at that point, so the other one can overtake it.
    const release = await acquireWriterLock(join(base, String(i)), 'c', { waitMs: 10_000, pollMs: 5, notice: pause });
    const got = Date.now();
    await new Promise((r) => setTimeout(r, holdMs));
    const left = Date.now();
    release();
    process.stdout.write(`${i} ${process.pid} ${got} ${left}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
