import type { TraceEvent } from '../api/client';

/** The key of a chart edge: `from→to`, as the chart's `data-edge` attributes carry it. */
export const edgeKey = (from: string, to: string): string => `${from}→${to}`;

/** Where a run stands on its chart after some of its events. */
export interface ChartRunState {
  /** Nodes entered and not yet exited (several at once for parallel branches). */
  active: string[];
  /** Times each node was entered; nodes only passed through by transitions count 0 but are in `reached`. */
  visits: Record<string, number>;
  /** Nodes a transition arrived at or left (choice states and end states have no enter events). */
  reached: string[];
  /**
   * The transitions taken, each once, with the guard and label they were taken under: of two chart
   * edges joining the same nodes (a guarded branch and its else), they tell which one (edgeIndexOf).
   */
  takenTransitions: Transition[];
  /** The transition taken last. */
  lastTransition?: Transition;
  /** One node id per `enter` event, in order. */
  litOrder: string[];
}

export const emptyRunState: ChartRunState = { active: [], visits: {}, reached: [], takenTransitions: [], litOrder: [] };

/** Nodes entered and not yet exited (with how many times over, for parallel branches), and how often each was entered. */
export interface NodeTally {
  open: Map<string, number>;
  visits: Record<string, number>;
}

export const nodeTally = (): NodeTally => ({ open: new Map(), visits: {} });

/** Counts an `enter` or an `exit` of a node; other kinds change nothing. */
export function tallyEvent(tally: NodeTally, id: string, kind: TraceEvent['kind']): void {
  if (kind === 'enter') {
    tally.open.set(id, (tally.open.get(id) ?? 0) + 1);
    tally.visits[id] = (tally.visits[id] ?? 0) + 1;
  } else if (kind === 'exit') {
    const left = (tally.open.get(id) ?? 0) - 1;
    if (left > 0) tally.open.set(id, left);
    else tally.open.delete(id);
  }
}

/** The nodes under way: none once the run is over. */
export const activeNodes = (tally: NodeTally, finished: boolean): string[] => (finished ? [] : [...tally.open.keys()]);

/**
 * The chart state after events[0..upto] (inclusive): a pure fold, so a replay can step backwards.
 * `finished` clears the active nodes (a run that is over has nothing under way).
 */
export function chartStateAt(events: readonly TraceEvent[], upto: number = events.length - 1, finished = false): ChartRunState {
  const tally = nodeTally();
  const reached = new Set<string>();
  const transitions = new Map<string, Transition>();
  const litOrder: string[] = [];
  let lastTransition: Transition | undefined;
  const last = Math.min(upto, events.length - 1);
  for (let i = 0; i <= last; i++) {
    const event = events[i];
    if (!event) continue;
    tallyEvent(tally, event.node, event.kind);
    switch (event.kind) {
      case 'enter':
        reached.add(event.node);
        litOrder.push(event.node);
        break;
      case 'transition': {
        const { from, to, guard, label } = transitionOf(event);
        if (from && to) {
          lastTransition = { from, to, ...(guard !== undefined ? { guard } : {}), ...(label !== undefined ? { label } : {}) };
          transitions.set(JSON.stringify([from, to, guard ?? null, label ?? null]), lastTransition);
          reached.add(from);
          reached.add(to);
        }
        break;
      }
      default:
        break;
    }
  }
  return {
    active: activeNodes(tally, finished),
    visits: tally.visits,
    reached: [...reached],
    takenTransitions: [...transitions.values()],
    ...(lastTransition ? { lastTransition } : {}),
    litOrder,
  };
}

/** The `{from, to}` of a transition event (the chart edge taken). */
export function transitionOf(event: TraceEvent): { from?: string; to?: string; guard?: string; label?: string } {
  const data = event.data;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return { from: text(data.from), to: text(data.to), guard: text(data.guard), label: text(data.label) };
}

/** A transition a run took: the chart edge's ends, and the guard and label it was taken under. */
export interface Transition {
  from: string;
  to: string;
  guard?: string;
  label?: string;
}

/**
 * The index of the chart edge a transition took, or -1: among the edges joining its two nodes, the
 * one whose guard matches (and, for a conditional edge with a label, whose label matches), else the
 * first of them. The rule core's chartWalkProblems checks runs by.
 */
export function edgeIndexOf(edges: ReadonlyArray<{ from: string; to: string; guard?: string; label?: string; kind?: string }>, t: Transition): number {
  let first = -1;
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!;
    if (e.from !== t.from || e.to !== t.to) continue;
    if (first < 0) first = i;
    if (e.guard === t.guard && (e.kind !== 'conditional' || e.label === undefined || e.label === t.label)) return i;
  }
  return first;
}
