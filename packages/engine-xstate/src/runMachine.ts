import { BudgetExceededError, deltasOf, MultihopError, RunAbortedError, type CheckpointHistory, type RunContext } from '@multihop/core';
import { createActor, type AnyStateMachine, type ContextFrom, type InputFrom, type MachineImplementationsFrom, type OutputFrom, type Snapshot } from 'xstate';
import { SnapshotCheckpoints } from './SnapshotCheckpoints';
import { TransitionTracer } from './TransitionTracer';

/** What `machine.provide()` accepts for this machine: actors, guards, actions, delays. */
export type MachineImplementations<TMachine extends AnyStateMachine> = MachineImplementationsFrom<TMachine>;

export interface MachineRunOptions<TMachine extends AnyStateMachine> {
  input: InputFrom<TMachine>;
  /**
   * Implementations bound to this run (e.g. `{ actors: actors.bind({ ctx }) }`), provided to
   * the machine before its actor starts; the machine itself stays free of any runtime.
   */
  implementations?: MachineImplementations<TMachine>;
  /** A persisted snapshot (`snapshot` of a paused run) to continue from, instead of the initial state. */
  snapshot?: unknown;
  /**
   * Pauses the run at the first stable state for which this holds (checked after every
   * macrostep, with the state's chart node id): the actor stops and the result carries its
   * persisted snapshot.
   */
  pauseWhen?: (state: string, context: ContextFrom<TMachine>) => boolean;
  /**
   * Final states that mean the run failed. Ending in one rethrows the error of the invoked
   * actor whose failure led there, as it was thrown, so the run reports it as its own (a
   * budget stop stays a partial result, a malformed model reply keeps its raw text).
   */
  failedStates?: readonly string[];
  /**
   * The most transitions one run may take (default MAX_TRANSITIONS). Loops end on a bound the
   * machine keeps in its context; this only stops a bug's loop, which would otherwise spin for
   * good (promise actors that settle at once never yield to timers), with a STEP_LIMIT error.
   */
  maxTransitions?: number;
}

/**
 * Default of MachineRunOptions.maxTransitions: above any of this project's machines at their
 * default settings (MMOA-RAG's pipeline takes about ten; OPERA raises it with its budgets), and near
 * LangGraph's default recursion limit of 25 supersteps in what a bug's loop costs before it stops:
 * a retrieve → answer loop with no bound makes about 50 model calls here, 12 there (it made 500 at 1,000).
 */
export const MAX_TRANSITIONS = 100;

export type MachineRunResult<TMachine extends AnyStateMachine> =
  | { status: 'done'; state: string; context: ContextFrom<TMachine>; output: OutputFrom<TMachine> }
  | { status: 'paused'; state: string; context: ContextFrom<TMachine>; /** JSON: `getPersistedSnapshot()`, round-tripped. */ snapshot: unknown };

/**
 * Runs an XState v5 machine as the body of a core workflow run:
 *
 * - the actor starts with `input` (or from a persisted `snapshot`), with the run's
 *   implementations provided and its named guards wrapped so their outcomes are recorded;
 * - every transition taken becomes `ctx.transition({ from, to, guard?, label? })` at its
 *   source state, named as the chart names it (`__start__ → initial` on a fresh start);
 * - `ctx.signal` aborting stops the actor and rejects with core's reading of the signal's
 *   reason (a deadline is a BudgetExceededError, anything else a RunAbortedError);
 * - an error the actor did not catch rejects as thrown; a caught one that ends the machine in
 *   one of `failedStates` is rethrown;
 * - completion resolves with the machine's output and final context; a pause with the
 *   persisted snapshot.
 */
export async function runMachine<TMachine extends AnyStateMachine>(
  machine: TMachine,
  ctx: RunContext,
  options: MachineRunOptions<TMachine>,
): Promise<MachineRunResult<TMachine>> {
  ctx.budget.check();
  // A durable run (ctx.durable) checkpoints its snapshots, and resumes a thread from its latest;
  // an explicit snapshot (a paused run handed back) is a resumption of its own and wins.
  const durable = options.snapshot === undefined ? ctx.durable : undefined;
  const checkpoints = durable ? SnapshotCheckpoints.of(durable) : undefined;
  let snapshot = options.snapshot;
  if (durable && checkpoints) {
    const latest = await checkpoints.latest();
    if (latest !== undefined) {
      durable.restore(await deltasOf(durable.checkpointer as CheckpointHistory, durable.threadId));
      snapshot = latest;
    }
  }
  if (snapshot !== undefined) checkRestorable(machine, snapshot, options.snapshot === undefined);
  try {
    return await runActor(machine, ctx, { ...options, ...(snapshot !== undefined ? { snapshot } : {}) }, checkpoints);
  } finally {
    await checkpoints?.flush();
  }
}

async function runActor<TMachine extends AnyStateMachine>(
  machine: TMachine,
  ctx: RunContext,
  options: MachineRunOptions<TMachine>,
  checkpoints: SnapshotCheckpoints | undefined,
): Promise<MachineRunResult<TMachine>> {
  const provided = (options.implementations ?? {}) as { guards?: Record<string, unknown> } & Record<string, unknown>;
  // The tracer reads the machine as the method defined it (states, transitions, guard names);
  // the actor runs a copy with this run's implementations and guards that report their outcome.
  // The trace's length right after the latest transition: a checkpoint taken at the next snapshot
  // covers the events up to there; what the new state's invoked actor emitted after it is emitted
  // again when a resumed actor restarts that invocation.
  let cut = ctx.trace.events.length;
  const limit = options.maxTransitions ?? MAX_TRANSITIONS;
  let taken = 0;
  let overLimit: (() => void) | undefined;
  const t = new TransitionTracer(machine, (edge) => {
    ctx.transition(edge);
    cut = ctx.trace.events.length;
    if (++taken > limit) overLimit?.();
  });
  const guards = t.wrapGuards({ ...(machine.implementations.guards as Record<string, unknown>), ...(provided.guards ?? {}) });
  const running = machine.provide({ ...provided, guards } as never) as AnyStateMachine;
  if (!options.snapshot) t.start();

  return new Promise<MachineRunResult<TMachine>>((resolve, reject) => {
    let settled = false;
    const actor = createActor(running, {
      input: options.input,
      ...(options.snapshot ? { snapshot: options.snapshot as Snapshot<unknown> } : {}),
      inspect: t.inspect,
    });
    if (options.snapshot) t.resumeAt(actor.getSnapshot().value);
    /** The actor's persisted snapshot, JSON-safe (as a checkpoint stores it and a pause returns it). */
    const persisted = (): unknown => JSON.parse(JSON.stringify(actor.getPersistedSnapshot())) as unknown;
    let persistedValue = options.snapshot ? JSON.stringify(actor.getSnapshot().value) : undefined;
    const checkpoint = (snapshot: { value: unknown; status: string }): void => {
      if (!checkpoints || !ctx.durable) return;
      const value = JSON.stringify(snapshot.value);
      if (value === persistedValue && snapshot.status !== 'done') return;
      persistedValue = value;
      checkpoints.save(persisted(), ctx.durable.capture(cut));
    };

    const settle = (end: () => void): void => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      subscription.unsubscribe();
      end();
    };
    const onAbort = (): void =>
      settle(() => {
        actor.stop();
        reject(abortError(ctx));
      });
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    overLimit = () =>
      settle(() => {
        actor.stop();
        reject(
          new MultihopError(
            'STEP_LIMIT',
            `machine "${machine.id}" took more than ${limit} transitions without reaching a final state (last: ${t.state}): a loop needs its own bound, a setting kept in the machine's context that a guard checks`,
          ),
        );
      });

    const onSnapshot = (snapshot: ReturnType<typeof actor.getSnapshot>, restored = false): void => {
      if (settled) return;
      const control = t.caughtError?.error;
      const stopped = control instanceof BudgetExceededError || control instanceof RunAbortedError;
      // A run that ended in a failure state, or was stopped, keeps no checkpoint of its end: a resumed
      // thread goes back into the step that failed (the provider back, or the same budget met again,
      // its completed calls from the journal), as LangGraph never checkpoints a failed step. Kept, the
      // end would be restored without its error and answer XSTATE_FAILED for good.
      const failedEnd = snapshot.status === 'done' && (stopped || (options.failedStates?.includes(t.state) ?? false));
      if (!restored && !failedEnd) checkpoint(snapshot);
      if (snapshot.status === 'done') {
        const state = t.state;
        // A budget stop or an abort that an actor threw is the run's to label (partial, aborted),
        // whichever final state the machine's onError led to: a machine cannot turn it into a success.
        if (stopped) {
          settle(() => reject(control));
          return;
        }
        if (options.failedStates?.includes(state)) {
          settle(() => reject(t.caughtError ? t.caughtError.error : new MultihopError('XSTATE_FAILED', `machine "${machine.id}" ended in its failure state "${state}"`)));
        } else {
          settle(() => resolve({ status: 'done', state, context: snapshot.context, output: snapshot.output }));
        }
        return;
      }
      if (snapshot.status === 'active' && options.pauseWhen?.(t.state, snapshot.context)) {
        const paused = persisted();
        const state = t.state;
        settle(() => {
          actor.stop();
          if (!ctx.trace.isClosed) ctx.trace.emit(state, 'decision', { decision: 'paused', state });
          resolve({ status: 'paused', state, context: snapshot.context, snapshot: paused });
        });
        return;
      }
      // A state that is not final and waits on nothing (no invoked actor running, no delayed
      // transition) is never left: no one sends a run's machine events. Without this the run's
      // promise would never settle, and a process with nothing else to do would exit as if it had
      // succeeded. Checked once what is already under way (a child's done event) has been delivered.
      if (snapshot.status === 'active' && waitsOnNothing(snapshot)) {
        setImmediate(() => {
          const now = actor.getSnapshot();
          if (settled || now !== snapshot || !waitsOnNothing(now)) return;
          const state = t.state;
          settle(() => {
            actor.stop();
            reject(
              new MultihopError(
                'XSTATE_STUCK',
                `machine "${machine.id}" stopped in state "${state}", which is not final and waits on nothing (no invoked actor, no delayed transition), and no event is sent to a run's machine: give "${state}" a transition out (onDone of an invoke, always, after) or make it a final state`,
              ),
            );
          });
        });
      }
    };
    const subscription = actor.subscribe({
      next: (snapshot) => onSnapshot(snapshot),
      error: (error) => settle(() => reject(error)),
    });
    actor.start();
    // A thread that had already finished: its restored snapshot is done and no event will come.
    if (actor.getSnapshot().status === 'done') onSnapshot(actor.getSnapshot(), true);
  });
}

/**
 * A snapshot to resume from names only states the machine has: a checkpoint written before the
 * machine changed (a state renamed or removed) would otherwise fail deep inside XState with a bare
 * TypeError. `fromCheckpoint`: it came from the thread's checkpoints (else the caller handed it over).
 */
function checkRestorable(machine: AnyStateMachine, snapshot: unknown, fromCheckpoint: boolean): void {
  const value = (snapshot as { value?: unknown } | null)?.value;
  const missing = (node: { states?: Record<string, unknown> }, v: unknown, path: string[]): string | undefined => {
    if (typeof v === 'string') return node.states?.[v] ? undefined : [...path, v].join('.');
    if (!v || typeof v !== 'object') return path.join('.') || '(no state)';
    for (const [key, child] of Object.entries(v)) {
      const next = node.states?.[key] as { states?: Record<string, unknown> } | undefined;
      if (!next) return [...path, key].join('.');
      const inner = missing(next, child, [...path, key]);
      if (inner) return inner;
    }
    return undefined;
  };
  const state = missing(machine.root as unknown as { states?: Record<string, unknown> }, value, []);
  if (state === undefined) return;
  throw new MultihopError(
    'CHECKPOINT',
    `${fromCheckpoint ? 'the thread\'s latest checkpoint' : 'the snapshot to resume from'} is in state "${state}", which machine "${machine.id}" does not have (the machine has changed since it was written): it cannot be resumed; start the run afresh${fromCheckpoint ? ' (a new thread, or an eval directory without its checkpoints.sqlite)' : ''}`,
  );
}

/** An active snapshot with no running child actor and no delayed transition in any of its states (XState's `_nodes`). */
function waitsOnNothing(snapshot: { children?: Record<string, { getSnapshot(): { status: string } } | undefined> }): boolean {
  const children = Object.values(snapshot.children ?? {});
  if (children.some((child) => child?.getSnapshot().status === 'active')) return false;
  const nodes = (snapshot as { _nodes?: ReadonlyArray<{ after?: readonly unknown[] }> })._nodes;
  // Without XState's list of active state nodes, nothing can be concluded.
  if (!Array.isArray(nodes)) return false;
  return !nodes.some((node) => (node.after?.length ?? 0) > 0);
}

/** Core's reading of an aborted signal (BudgetTracker.check): the deadline's BudgetExceededError, else a RunAbortedError with the reason. */
function abortError(ctx: RunContext): unknown {
  try {
    ctx.budget.check();
  } catch (error) {
    return error;
  }
  return new RunAbortedError(ctx.signal.reason);
}
