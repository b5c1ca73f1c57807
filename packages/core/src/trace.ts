import type { TraceEvent, TraceKind } from './types';

/** An observer of a run's events. It may be async: a promise it returns that rejects is caught like a throw. */
export type TraceListener = (event: TraceEvent) => unknown;

/**
 * The live event stream of one run. Events get a run-wide sequence number and a timestamp,
 * are kept in order for the RunResult, go to listeners as they happen (a UI lights the chart
 * up from them), and can be consumed with `for await` until the run closes the bus.
 */
export class TraceBus {
  private readonly log: TraceEvent[] = [];
  private readonly listeners = new Set<TraceListener>();
  private readonly wakers = new Set<() => void>();
  private closed = false;

  constructor(readonly runId: string) {}

  emit(node: string, kind: TraceKind, data: Record<string, unknown> = {}): TraceEvent {
    if (this.closed) throw new Error(`trace of run ${this.runId} is closed; no event may follow the run's end`);
    return this.publish({ runId: this.runId, seq: this.log.length, at: Date.now(), node, kind, data });
  }

  /**
   * Puts back an event recorded by an earlier process of the same durable run (a resumed run's
   * history): it keeps its time and data, is marked `restored: true`, gets this run's id and the
   * next seq, and reaches listeners.
   */
  replay(event: TraceEvent): TraceEvent {
    if (this.closed) throw new Error(`trace of run ${this.runId} is closed; no event may follow the run's end`);
    return this.publish({ ...event, runId: this.runId, seq: this.log.length, data: { ...event.data, restored: true } });
  }

  private publish(event: TraceEvent): TraceEvent {
    this.log.push(event);
    for (const listener of this.listeners) {
      try {
        const returned: unknown = listener(event);
        // An async observer that rejects (a UI's socket closed) must not become an unhandled
        // rejection, which ends a Node process by default.
        if (returned && typeof (returned as PromiseLike<unknown>).then === 'function') (returned as Promise<unknown>).then(undefined, (error: unknown) => this.listenerFailed(error));
      } catch (error) {
        // A failing observer must not break the run it observes.
        this.listenerFailed(error);
      }
    }
    this.wake();
    return event;
  }

  private warned = false;

  /** One process warning per bus for an observer that failed, so the failure is not silent; the run goes on. */
  private listenerFailed(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    process.emitWarning(`a trace listener of run ${this.runId} failed (the run goes on; later failures of this run's listeners are not reported): ${error instanceof Error ? error.message : String(error)}`, { code: 'MULTIHOP_TRACE_LISTENER' });
  }

  /** Subscribes to events emitted from now on; returns the unsubscribe function. */
  on(listener: TraceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get events(): readonly TraceEvent[] {
    return this.log;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Every event of the run from the first, then live ones, until the bus closes. */
  async *[Symbol.asyncIterator](): AsyncIterator<TraceEvent> {
    let next = 0;
    for (;;) {
      while (next < this.log.length) yield this.log[next++] as TraceEvent;
      if (this.closed) return;
      await new Promise<void>((resolve) => this.wakers.add(resolve));
    }
  }

  private wake(): void {
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const wake of wakers) wake();
  }
}
