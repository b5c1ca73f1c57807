/**
 * A counting semaphore: at most `concurrency` tasks run at once, the rest wait in FIFO order.
 * Model endpoints rate-limit by concurrent requests; one limiter per model port keeps a whole
 * evaluation (many questions × workflows) under that bound.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** One abort listener per signal, for all its waiting tasks (a run's fan-out may queue dozens on one signal). */
  private readonly aborts = new Map<AbortSignal, { waiters: Set<() => void>; listener: () => void }>();

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    }
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  private watch(signal: AbortSignal, onAbort: () => void): void {
    let entry = this.aborts.get(signal);
    if (!entry) {
      const waiters = new Set<() => void>();
      const listener = () => {
        this.aborts.delete(signal);
        for (const waiter of waiters) waiter();
      };
      entry = { waiters, listener };
      this.aborts.set(signal, entry);
      signal.addEventListener('abort', listener, { once: true });
    }
    entry.waiters.add(onAbort);
  }

  private unwatch(signal: AbortSignal, onAbort: () => void): void {
    const entry = this.aborts.get(signal);
    if (!entry) return;
    entry.waiters.delete(onAbort);
    if (entry.waiters.size === 0) {
      this.aborts.delete(signal);
      signal.removeEventListener('abort', entry.listener);
    }
  }

  /**
   * Runs `task` once a slot is free. A `signal` that fires while the task waits for its slot
   * takes it out of the queue and rejects with `abortError(signal.reason)`: an aborted run
   * does not wait for other runs' calls to finish first.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal, abortError: (reason: unknown) => Error = (reason) => (reason instanceof Error ? reason : new Error(String(reason)))): Promise<T> {
    // A waiter is handed the slot of the task that finished (`active` keeps counting it): a call made
    // between that task's end and the waiter's wake-up sees no free slot, and queues behind it.
    let handed = false;
    if (this.active >= this.concurrency) {
      if (signal?.aborted) throw abortError(signal.reason);
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(abortError(signal?.reason));
        };
        const wake = () => {
          if (signal) this.unwatch(signal, onAbort);
          resolve();
        };
        this.waiting.push(wake);
        if (signal) this.watch(signal, onAbort);
      });
      handed = true;
    }
    if (!handed) this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
