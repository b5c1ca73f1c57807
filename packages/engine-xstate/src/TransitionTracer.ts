import { xstateEventLabel, xstateGuardName, type TransitionData } from '@multihop/core';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventObject, InspectionEvent, StateValue } from 'xstate';
import { chartStateNames } from './chartStateNames';

type GuardImplementation = (args: unknown, params: unknown) => boolean;

/**
 * Turns a running machine's inspection events into the chart edges it takes, with XState's
 * public API only.
 *
 * An `@xstate.microstep` event carries the event and the snapshot after the step, but not
 * which transition was taken. So the tracer keeps the active states (read from each
 * snapshot's `value`), and re-does XState's selection on their public definitions (`always`,
 * `transitions`): per active leaf, then its ancestors, the first candidate whose guard passed.
 * Whether a guard passed it does not re-evaluate: the named guards are wrapped (`wrapGuards`,
 * passed to `machine.provide`) to record their outcome as XState evaluates them.
 *
 * A microstep is the event's own step when its event object is the one an `@xstate.event`
 * just delivered to this actor; every other microstep is eventless (`always`) or, when no
 * eventless transition was enabled, an event the machine raised itself.
 */
export class TransitionTracer {
  private readonly names: ReadonlyMap<string, string>;
  private readonly outcomes = new Map<string, boolean>();
  private readonly delivered = new WeakSet<EventObject>();
  private active: AnyStateNode[];
  /** The error of the last `xstate.error.actor.*` event a transition handled: the machine caught it. */
  caughtError: { error: unknown } | undefined;

  /**
   * @param machine the machine as the method defined it: `provide()` copies change only
   *   implementations, so its states and transitions describe the running copy too
   */
  constructor(
    private readonly machine: AnyStateMachine,
    private readonly emit: (edge: TransitionData) => void,
  ) {
    this.names = chartStateNames(machine);
    this.active = initialLeaves(machine.root);
  }

  /**
   * The named guards, each recording its outcome when XState evaluates it. Higher-order guards
   * (`and`, `or`, `not`) are XState's own objects and stay as they are; transitions guarded by
   * them (or by inline functions) are recognised by the state they reach instead.
   */
  wrapGuards(guards: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(guards).map(([name, guard]) => {
        if (typeof guard !== 'function' || 'check' in guard) return [name, guard];
        const implementation = guard as GuardImplementation;
        const recorded = (args: unknown, params: unknown): boolean => {
          const passed = implementation(args, params);
          this.outcomes.set(name, passed);
          return passed;
        };
        return [name, recorded];
      }),
    );
  }

  /** A fresh run: the edge from the chart's `__start__` to each initial state. */
  start(): void {
    for (const target of this.machine.root.initial.target) {
      this.emit({ from: '__start__', to: this.nameOf(target) });
      this.enter(target);
    }
  }

  /** A restored run: the active states are the persisted snapshot's, and nothing is emitted for them. */
  resumeAt(value: StateValue): void {
    this.active = leavesOf(this.machine.root, value);
  }

  /** The chart node id of the first active leaf state (for parallel states, in document order). */
  get state(): string {
    const leaf = this.active[0];
    return leaf ? this.nameOf(leaf) : '';
  }

  /** The actor's `inspect` observer. */
  readonly inspect = (event: InspectionEvent): void => {
    // Only the machine itself: invoked children report to the same observer.
    if (event.actorRef.sessionId !== event.rootId) return;
    if (event.type === '@xstate.event') {
      this.delivered.add(event.event);
      this.outcomes.clear();
      return;
    }
    if (event.type !== '@xstate.microstep') return;
    const snapshot = event.snapshot as unknown as { value: StateValue; status: string };
    const ownStep = this.delivered.has(event.event);
    this.delivered.delete(event.event);
    // Stopping, or an error nothing caught, ends the actor without taking a transition.
    if (snapshot.status === 'stopped' || snapshot.status === 'error') return;
    const next = leavesOf(this.machine.root, snapshot.value);
    const taken = this.select(event.event, ownStep, next);
    this.outcomes.clear();
    this.active = next;
    for (const t of taken) {
      if (t.eventType.startsWith('xstate.error.actor.')) this.caughtError = { error: (event.event as { error?: unknown }).error };
      for (const target of t.target ?? []) {
        this.emit(this.edgeOf(t, target));
        this.enter(target);
      }
    }
  };

  /** Entering a compound state goes on down its chart's `initial` edges to a leaf, so the walk stays on the chart. */
  private enter(node: AnyStateNode): void {
    if (node.type !== 'compound') return;
    for (const child of node.initial.target) {
      this.emit({ from: this.nameOf(node), to: this.nameOf(child), label: 'initial' });
      this.enter(child);
    }
  }

  private select(event: EventObject, ownStep: boolean, next: AnyStateNode[]): AnyTransitionDefinition[] {
    if (!ownStep) {
      const eventless = this.firstEnabled(next, (node) => node.always ?? []);
      if (eventless.length > 0) return eventless;
    }
    return this.firstEnabled(next, (node) => candidatesFor(node, event.type));
  }

  /** Per active leaf, the first candidate on it or its ancestors whose guard let it through. */
  private firstEnabled(next: AnyStateNode[], candidates: (node: AnyStateNode) => readonly AnyTransitionDefinition[]): AnyTransitionDefinition[] {
    const taken = new Set<AnyTransitionDefinition>();
    for (const leaf of this.active) {
      search: for (let node: AnyStateNode | undefined = leaf; node; node = node.parent) {
        for (const t of candidates(node)) {
          if (this.guardPassed(t, next)) {
            taken.add(t);
            break search;
          }
        }
      }
    }
    return [...taken];
  }

  private guardPassed(t: AnyTransitionDefinition, next: AnyStateNode[]): boolean {
    if (t.guard === undefined) return true;
    const name = xstateGuardName(t.guard);
    const outcome = name === undefined ? undefined : this.outcomes.get(name);
    if (outcome !== undefined) return outcome;
    // A guard whose outcome was not recorded: taken only if the machine is now where it leads.
    return (t.target ?? []).length > 0 && (t.target ?? []).every((target) => next.some((leaf) => isSelfOrAncestor(target, leaf)));
  }

  private edgeOf(t: AnyTransitionDefinition, target: AnyStateNode): TransitionData {
    const guard = xstateGuardName(t.guard);
    const from = this.nameOf(t.source);
    const to = this.nameOf(target);
    if (t.eventType === '') {
      // The chart's rule: an unguarded eventless transition beside others is its choice's `else`.
      const choice = guard !== undefined || (t.source.always ?? []).length > 1;
      return { from, to, ...(guard ? { guard } : {}), label: choice && !guard ? 'else' : 'always' };
    }
    return { from, to, ...(guard ? { guard } : {}), label: eventLabel(t.eventType, t.source) };
  }

  private nameOf(node: AnyStateNode): string {
    return this.names.get(node.id) ?? node.key;
  }
}

/** XState's candidate order for an event on one state node: the exact descriptor, then wildcards, longest first. */
function candidatesFor(node: AnyStateNode, eventType: string): readonly AnyTransitionDefinition[] {
  const exact = node.transitions.get(eventType) ?? [];
  const wildcards = [...node.transitions.keys()]
    .filter((descriptor) => descriptor !== eventType && matchesDescriptor(eventType, descriptor))
    .sort((a, b) => b.length - a.length)
    .flatMap((descriptor) => node.transitions.get(descriptor) ?? []);
  return [...exact, ...wildcards];
}

function matchesDescriptor(eventType: string, descriptor: string): boolean {
  if (descriptor === '*') return true;
  if (!descriptor.endsWith('.*')) return false;
  const prefix = descriptor.slice(0, -2).split('.');
  const tokens = eventType.split('.');
  return prefix.every((token, i) => tokens[i] === token);
}

/** The chart's label for an event (core's, so the trace and the chart agree), naming an invoked actor by its `src`. */
function eventLabel(eventType: string, source: AnyStateNode): string {
  return xstateEventLabel(eventType, (id) => {
    const invoked = source.invoke.find((i) => i.id === id);
    return invoked && typeof invoked.src === 'string' ? invoked.src : undefined;
  });
}

function leavesOf(node: AnyStateNode, value: StateValue): AnyStateNode[] {
  if (typeof value === 'string') {
    const child = node.states[value] as AnyStateNode | undefined;
    return child ? [child] : [];
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return [node];
  return entries.flatMap(([key, sub]) => {
    const child = node.states[key] as AnyStateNode | undefined;
    return child ? (sub === undefined ? [child] : leavesOf(child, sub)) : [];
  });
}

function initialLeaves(node: AnyStateNode): AnyStateNode[] {
  if (node.type === 'parallel') return (Object.values(node.states) as AnyStateNode[]).flatMap(initialLeaves);
  if (node.type === 'compound') return node.initial.target.flatMap(initialLeaves);
  return [node];
}

function isSelfOrAncestor(node: AnyStateNode, of: AnyStateNode): boolean {
  for (let n: AnyStateNode | undefined = of; n; n = n.parent) if (n === node) return true;
  return false;
}
