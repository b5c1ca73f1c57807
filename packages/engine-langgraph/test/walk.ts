import type { TraceEvent, TransitionData } from '@multihop/core';

const transitionsOf = (trace: readonly TraceEvent[]) =>
  trace.filter((e) => e.kind === 'transition').map((e) => e.data as unknown as TransitionData);

/** The edges a run took, in order, as `from→to [guard] label` strings (guard and label when present). */
export function takenEdges(trace: readonly TraceEvent[]): string[] {
  return transitionsOf(trace).map((t) => `${t.from}→${t.to}${t.guard ? ` [${t.guard}]` : ''}${t.label ? ` ${t.label}` : ''}`);
}
