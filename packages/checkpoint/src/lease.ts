import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { MultihopError } from '@multihop/core';
import type { CheckpointStore, LeaseState } from './CheckpointStore';

/** Whether an owner id (`<host>:<pid>:...`) names a process of this machine that no longer runs. */
export function deadHere(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A thread another process is running: its lease is held and has not expired. */
export class ThreadBusyError extends MultihopError {
  constructor(
    readonly threadId: string,
    readonly holder: Extract<LeaseState, { held: false }>,
    location: string,
  ) {
    super('THREAD_BUSY', `thread "${threadId}" in ${location} is being run by another process (${holder.owner}; its lease runs to ${holder.expiresAt} unless renewed): wait for it to end, or give another thread id`);
  }
}

/** A lease this process holds on a thread, renewed in the background until released. */
export interface ThreadLease {
  readonly threadId: string;
  readonly owner: string;
  /** False once a renewal found the lease taken by another process (this one stalled past its expiry). */
  readonly held: boolean;
  /** Stops renewing and gives the lease up (once; later calls do nothing). */
  release(): Promise<void>;
}

export interface HoldOptions {
  /** Who holds it, as others' messages name it (default `<host>:<pid>:<random>`: unique per hold). */
  owner?: string;
  /** How long the lease lasts unless renewed (default 30 s); it is renewed every third of that. */
  ttlMs?: number;
  /**
   * Wait for a busy thread instead of failing with ThreadBusyError: poll until its holder releases
   * it or lets it expire (a killed holder's lease expires within ttlMs). `onWait` is told once.
   */
  wait?: { pollMs?: number; onWait?: (holder: Extract<LeaseState, { held: false }>) => void; signal?: AbortSignal };
}

export const DEFAULT_LEASE_MS = 30_000;

/**
 * Holds a thread for this process while it runs it, so two processes never run one thread at
 * once (their checkpoints and journal would interleave): `run --thread` and `resume` refuse a busy
 * thread, queue workers wait for it. The lease is renewed in the background (the timer does not
 * keep the process alive) and expires on its own if the process dies; a holder on this machine
 * whose process is gone is taken over at once (`resume` right after a crash).
 */
export async function holdThread(store: CheckpointStore, threadId: string, options: HoldOptions = {}): Promise<ThreadLease> {
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  let told = false;
  for (;;) {
    const state = await store.acquireLease(threadId, owner, ttlMs);
    if (state.held) break;
    // A holder on this machine whose process is gone (killed, crashed) is not waited for: its lease is dropped.
    if (deadHere(state.owner)) {
      await store.releaseLease(threadId, state.owner);
      continue;
    }
    if (!options.wait) throw new ThreadBusyError(threadId, state, store.location);
    if (!told) options.wait.onWait?.(state);
    told = true;
    if (options.wait.signal?.aborted) throw options.wait.signal.reason ?? new Error('aborted');
    await new Promise((resolve) => setTimeout(resolve, options.wait!.pollMs ?? Math.min(1000, ttlMs / 4)));
  }
  let held = true;
  let released = false;
  const timer = setInterval(() => {
    store.renewLease(threadId, owner, ttlMs).then(
      (still) => {
        if (!still && !released) {
          held = false;
          clearInterval(timer);
        }
      },
      () => undefined, // a failed renewal (the database away for a moment) is tried again at the next tick
    );
  }, Math.max(10, ttlMs / 3));
  timer.unref();
  return {
    threadId,
    owner,
    get held() {
      return held;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await store.releaseLease(threadId, owner);
    },
  };
}
