import type { Io } from '../io';
import { parseRateLimit, runWorker } from '../queue/worker';

export interface WorkerCommandOptions {
  /** redis://HOST:PORT: the queue `multihop eval --queue` puts its pairs on. */
  queue: string;
  concurrency?: number;
  /** `N/DURATION` (`10/1s`): BullMQ's limiter, shared by every worker of the queue. */
  rateLimit?: string;
  /** Seconds before the job of a worker that stopped answering (killed) goes to another worker (default 30). */
  stalledAfter?: number;
  db?: string;
  /** Exit after this many seconds with nothing to do. */
  idleExit?: number;
}

/** `multihop worker --queue redis://HOST:PORT`: runs queued eval pairs until SIGINT/SIGTERM (see queue/worker.ts). */
export async function workerCommand(io: Io, options: WorkerCommandOptions): Promise<number> {
  return runWorker(io, {
    queue: options.queue,
    concurrency: options.concurrency ?? 2,
    rateLimit: parseRateLimit(options.rateLimit),
    stalledAfter: options.stalledAfter ?? 30,
    db: options.db,
    ...(options.idleExit !== undefined ? { idleExit: options.idleExit } : {}),
  });
}
