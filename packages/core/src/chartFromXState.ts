import type { Chart, ChartEdge, ChartNode } from './chart';

/**
 * A transition as XState v5 serialises it (`machine.toJSON()`, or a transition's own
 * `toJSON()`): targets are `#`-prefixed state ids, a named guard is its name (or `{ type }`
 * with params).
 */
export interface XStateTransitionJSON {
  target?: ReadonlyArray<string | { id: string }>;
  guard?: string | { type?: string } | unknown;
  eventType?: string;
  reenter?: boolean;
}

/** One state node of `machine.toJSON()`: the parts a chart needs. */
export interface XStateNodeJSON {
  id: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history' | string;
  initial?: { target?: ReadonlyArray<string | { id: string }> } | null;
  states?: Record<string, XStateNodeJSON>;
  transitions?: readonly XStateTransitionJSON[];
  invoke?: ReadonlyArray<{ src: string | unknown; id: string }>;
  description?: string;
}

/**
 * The shape of an XState v5 machine that the chart reads, structurally, so core needs no
 * xstate import. `toJSON()` omits eventless (`always`) transitions, so they are read off the
 * live state nodes (`machine.root`), whose `always` entries serialise like any transition.
 */
export interface XStateMachineLike {
  toJSON(): XStateNodeJSON;
  root: XStateRootLike;
}

export interface XStateRootLike {
  always?: readonly unknown[];
  states: Record<string, XStateRootLike>;
}

export interface XStateChartOptions {
  id: string;
  title?: string;
  /** Display labels per state key (the invoked actors are added to them). */
  labels?: Record<string, string>;
}

const START = '__start__';

/**
 * A Chart read off an XState v5 machine, so the chart is the machine that runs. Every state
 * becomes a node named by its key (nested states keep their parent), labelled with the
 * actors it invokes; every transition becomes an edge labelled with its event (`done` /
 * `error` of an invoked actor, the event type, or `always`) and carrying its guard. States
 * whose only way out is a set of guarded eventless transitions are choices; final states
 * are ends. A synthetic `__start__` node points at the initial state.
 */
export function chartFromXState(machine: XStateMachineLike, options: XStateChartOptions): Chart {
  const json = machine.toJSON();
  const nodes: ChartNode[] = [{ id: START, kind: 'start' }];
  const edges: ChartEdge[] = [];
  const keyOf = new Map<string, string>();
  const used = new Set<string>([START]);

  // Breadth first, so a top-level state keeps its bare key and only a nested state whose key
  // is already taken (keys are unique within a parent only) is named by its path.
  const queue: Array<{ node: XStateNodeJSON; path: string[] }> = [{ node: json, path: [] }];
  for (let head = 0; head < queue.length; head++) {
    const { node, path } = queue[head]!;
    for (const [key, child] of Object.entries(node.states ?? {})) {
      const name = used.has(key) ? [...path, key].join('.') : key;
      used.add(name);
      keyOf.set(child.id, name);
      queue.push({ node: child, path: [...path, key] });
    }
  }
  const nameOf = (target: string | { id: string }): string => {
    const id = typeof target === 'string' ? target.replace(/^#/, '') : target.id;
    return keyOf.get(id) ?? id;
  };

  const visit = (node: XStateNodeJSON, live: XStateRootLike | undefined, parent: string | undefined): void => {
    for (const [key, child] of Object.entries(node.states ?? {})) {
      const name = keyOf.get(child.id) ?? key;
      const childLive = live?.states[key];
      const always = (childLive?.always ?? []).map(toTransitionJSON);
      const actors = (child.invoke ?? []).map((i) => (typeof i.src === 'string' ? i.src : i.id));
      const base = options.labels?.[key] ?? key;
      const label = actors.length ? `${base} · invokes ${actors.join(', ')}` : base;
      const guardedChoice = always.length > 1 && always.some((t) => xstateGuardName(t.guard)) && (child.transitions ?? []).length === 0;
      nodes.push({
        id: name,
        ...(label !== name ? { label } : {}),
        kind: child.type === 'final' ? 'end' : child.type === 'parallel' ? 'parallel' : guardedChoice ? 'choice' : 'step',
        ...(parent ? { parent } : {}),
      });
      const invokeIds = new Map((child.invoke ?? []).map((i) => [i.id, typeof i.src === 'string' ? i.src : i.id]));
      const outgoing: Array<{ t: XStateTransitionJSON; eventless: boolean }> = [
        ...(child.transitions ?? []).map((t) => ({ t, eventless: false })),
        ...always.map((t) => ({ t, eventless: true })),
      ];
      const siblings = (event: string | undefined, eventless: boolean) =>
        outgoing.filter((o) => o.eventless === eventless && (eventless || o.t.eventType === event)).length;
      for (const { t, eventless } of outgoing) {
        const guard = xstateGuardName(t.guard);
        const conditional = guard !== undefined || siblings(t.eventType, eventless) > 1;
        for (const target of t.target ?? []) {
          edges.push({
            from: name,
            to: nameOf(target),
            // The unguarded last resort of a guarded choice reads as `else`.
            label: eventless ? (conditional && !guard ? 'else' : 'always') : xstateEventLabel(t.eventType ?? '', (id) => invokeIds.get(id)),
            ...(guard ? { guard } : {}),
            kind: conditional ? 'conditional' : 'always',
          });
        }
      }
      visit(child, childLive, name);
      const initial = child.initial?.target ?? [];
      for (const target of initial) edges.push({ from: name, to: nameOf(target), label: 'initial', kind: 'always' });
    }
  };
  visit(json, machine.root, undefined);
  for (const target of json.initial?.target ?? []) edges.unshift({ from: START, to: nameOf(target), kind: 'always' });

  const guards = [...new Set(edges.flatMap((e) => (e.guard ? [e.guard] : [])))];
  return { id: options.id, ...(options.title ? { title: options.title } : {}), engine: 'xstate', nodes, edges, guards };
}

function toTransitionJSON(transition: unknown): XStateTransitionJSON {
  const t = transition as { toJSON?: () => XStateTransitionJSON } & XStateTransitionJSON;
  return typeof t.toJSON === 'function' ? t.toJSON() : t;
}

/** A guard's name as XState serialises it (`'name'` or `{ type: 'name', params }`); undefined for an inline guard. */
export function xstateGuardName(guard: unknown): string | undefined {
  if (typeof guard === 'string') return guard;
  if (guard && typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') return (guard as { type: string }).type;
  return undefined;
}

/**
 * The chart's label of an event: `xstate.done.actor.<id>` → `done: <actor>`,
 * `xstate.error.actor.<id>` → `error: <actor>`, `xstate.after.<ms>…` → `after <ms> ms`, others as
 * written. The XState engine adapter labels its `transition` events with this too, so the trace
 * and the chart name an edge the same way.
 */
export function xstateEventLabel(eventType: string, actorOf: (invokeId: string) => string | undefined): string {
  for (const [prefix, word] of [
    ['xstate.done.actor.', 'done'],
    ['xstate.error.actor.', 'error'],
  ] as const) {
    if (eventType.startsWith(prefix)) {
      const id = eventType.slice(prefix.length);
      return `${word}: ${actorOf(id) ?? id}`;
    }
  }
  if (eventType.startsWith('xstate.after.')) return `after ${eventType.slice('xstate.after.'.length).split('.')[0]} ms`;
  return eventType;
}
