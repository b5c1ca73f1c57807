import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { MultihopError, processAlive, type DurableRunOptions } from '@multihop/core';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckpointStore, LeaseHolder } from './CheckpointStore';

/**
 * What tells this machine and pid namespace apart from others that share its hostname (cloned
 * images, scaled containers): the kernel's boot id and this process's pid namespace. Empty where
 * /proc does not say (then no holder is ever judged dead here; its lease expires instead).
 */
export const MACHINE_TAG = ((): string => {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
    const namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
    return boot && namespace ? `${boot}.${namespace}` : '';
  } catch {
    return '';
  }
})();

/** The owner id of a hold by this process: `<host>:<pid>:<random>@<machine tag>`. */
function ownerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}${MACHINE_TAG ? `@${MACHINE_TAG}` : ''}`;
}

/**
 * Whether an owner id (`<host>:<pid>:...@<machine tag>`) names a process of this very machine and
 * pid namespace that no longer runs. Only then is it safe to take its lease before it expires.
 */
function deadHere(owner: string): boolean {
  const at = owner.lastIndexOf('@');
  if (!MACHINE_TAG || at < 0 || owner.slice(at + 1) !== MACHINE_TAG) return false;
  const [host, pid] = owner.slice(0, at).split(':');
  return host === hostname() && /^\d+$/.test(pid ?? '') && !processAlive(Number(pid));
}

/** A thread another process is running: its lease is held and has not expired. */
export class ThreadBusyError extends MultihopError {
  constructor(
    readonly threadId: string,
    readonly holder: LeaseHolder,
    location: string,
  ) {
    super('THREAD_BUSY', `thread "${threadId}" in ${location} is being run by another process (${holder.owner}; its lease runs to ${holder.expiresAt} unless renewed): wait for it to end`);
  }
}

/** A lease this process holds on a thread, renewed in the background until released. */
export interface ThreadLease {
  readonly threadId: string;
  readonly owner: string;
  /** False once a renewal found the lease taken by another process (this one stalled past its expiry). */
  readonly held: boolean;
  /** Aborted when the lease is found lost: pass it to the run, so a process that lost its thread stops. */
  readonly signal: AbortSignal;
  /**
   * Renews the lease now and says whether it is still held: call it just before writing anything
   * final (a result, a thread's end), since `held` learns of a loss only at the next renewal.
   */
  confirm(): Promise<boolean>;
  /**
   * `RunOptions.durable` for the thread, fenced by the lease: each checkpoint and journal entry is
   * written only after the lease is renewed, so a process that lost the thread (stopped past its
   * lease while another took it) writes nothing more of it; the write fails with THREAD_LOST and
   * the run stops.
   */
  durable(): DurableRunOptions;
  /** Stops renewing and gives the lease up (once; later calls do nothing). */
  release(): Promise<void>;
}

export interface HoldOptions {
  /** Who holds it, as others' messages name it (default `ownerId()`: `<host>:<pid>:<random>@<machine tag>`, unique per hold). */
  owner?: string;
  /** How long the lease lasts unless renewed (default 30 s); it is renewed every third of that. */
  ttlMs?: number;
  /**
   * Wait for a busy thread instead of failing with ThreadBusyError: poll until its holder releases
   * it or lets it expire (a killed holder's lease expires within ttlMs). `onWait` is told once.
   */
  wait?: { pollMs?: number; onWait?: (holder: LeaseHolder) => void; signal?: AbortSignal };
}

const DEFAULT_LEASE_MS = 30_000;

/** The LangGraph saver with `fence` run before each write (a checkpoint, a step's pending writes); reads and the rest pass through. */
function fencedSaver(saver: object, fence: () => Promise<void>): object {
  return new Proxy(saver, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (key === 'put' || key === 'putWrites') {
        return async (...args: unknown[]) => {
          await fence();
          return method.apply(target, args);
        };
      }
      return method.bind(target);
    },
  });
}

/**
 * Holds a thread for this process while it runs it, so two processes never run one thread at
 * once (their checkpoints and journal would interleave): `run --thread` and `resume` refuse a busy
 * thread, queue workers wait for it. The lease is renewed in the background (the timer does not
 * keep the process alive) and expires on its own if the process dies; a holder on this machine
 * whose process is gone is taken over at once (`resume` right after a crash).
 */
export async function holdThread(store: CheckpointStore, threadId: string, options: HoldOptions = {}): Promise<ThreadLease> {
  const owner = options.owner ?? ownerId();
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
    const signal = options.wait.signal;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    // A stop ends the wait at once, not at the next poll.
    await sleep(options.wait.pollMs ?? Math.min(1000, ttlMs / 4), undefined, signal ? { signal } : {}).catch(() => undefined);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }
  let held = true;
  let released = false;
  const lost = new AbortController();
  const lose = () => {
    if (released || !held) return;
    held = false;
    clearInterval(timer);
    lost.abort(new MultihopError('THREAD_LOST', `lost thread "${threadId}" in ${store.location}: its lease expired unrenewed and another process took it`));
  };
  const timer = setInterval(() => {
    store.renewLease(threadId, owner, ttlMs).then(
      (still) => void (still || lose()),
      () => undefined, // a failed renewal (the database away for a moment) is tried again at the next tick
    );
  }, Math.max(10, ttlMs / 3));
  timer.unref();
  const confirm = async (): Promise<boolean> => {
    if (!held) return false;
    if (!(await store.renewLease(threadId, owner, ttlMs))) lose();
    return held;
  };
  const fence = async (): Promise<void> => {
    if (!(await confirm())) throw lost.signal.reason;
  };
  return {
    threadId,
    owner,
    get held() {
      return held;
    },
    signal: lost.signal,
    confirm,
    durable() {
      const base = store.durable(threadId);
      return { ...base, checkpointer: fencedSaver(base.checkpointer, fence), calls: { get: (t, k) => base.calls.get(t, k), put: async (t, k, call) => (await fence(), base.calls.put(t, k, call)) } };
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await store.releaseLease(threadId, owner);
    },
  };
}
