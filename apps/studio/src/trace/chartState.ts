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
  /** Edges taken, as `from→to` keys. */
  takenEdges: string[];
  /** The edge taken last. */
  lastEdge?: string;
  /** One node id per `enter` event, in order. */
  litOrder: string[];
}

export const emptyRunState: ChartRunState = { active: [], visits: {}, reached: [], takenEdges: [], litOrder: [] };

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
  const taken = new Set<string>();
  const litOrder: string[] = [];
  let lastEdge: string | undefined;
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
        const { from, to } = transitionOf(event);
        if (from && to) {
          lastEdge = edgeKey(from, to);
          taken.add(lastEdge);
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
    takenEdges: [...taken],
    ...(lastEdge ? { lastEdge } : {}),
    litOrder,
  };
}

/** The `{from, to}` of a transition event (the chart edge taken). */
export function transitionOf(event: TraceEvent): { from?: string; to?: string; guard?: string; label?: string } {
  const data = event.data;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return { from: text(data.from), to: text(data.to), guard: text(data.guard), label: text(data.label) };
}
