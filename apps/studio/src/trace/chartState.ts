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

/**
 * The chart state after events[0..upto] (inclusive): a pure fold, so a replay can step backwards.
 * `finished` clears the active nodes (a run that is over has nothing under way).
 */
export function chartStateAt(events: readonly TraceEvent[], upto: number = events.length - 1, finished = false): ChartRunState {
  const open = new Map<string, number>();
  const visits: Record<string, number> = {};
  const reached = new Set<string>();
  const taken = new Set<string>();
  const litOrder: string[] = [];
  let lastEdge: string | undefined;
  const last = Math.min(upto, events.length - 1);
  for (let i = 0; i <= last; i++) {
    const event = events[i];
    if (!event) continue;
    switch (event.kind) {
      case 'enter':
        open.set(event.node, (open.get(event.node) ?? 0) + 1);
        visits[event.node] = (visits[event.node] ?? 0) + 1;
        reached.add(event.node);
        litOrder.push(event.node);
        break;
      case 'exit': {
        const count = (open.get(event.node) ?? 0) - 1;
        if (count > 0) open.set(event.node, count);
        else open.delete(event.node);
        break;
      }
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
    active: finished ? [] : [...open.keys()],
    visits,
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
