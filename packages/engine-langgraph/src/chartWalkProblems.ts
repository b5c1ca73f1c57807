import type { Chart, TraceEvent, TransitionData } from '@multihop/core';

/**
 * The problems that keep a run's trace from being a walk on `chart`, in Pregel's sense (parallel
 * branches allowed); empty when it is one:
 * - every transition is an edge of the chart, with the chart's guard and label;
 * - the first transitions leave `__start__`; each later one leaves a node that has finished: its
 *   latest enter/exit is an exit, or, for a node that runs as parallel branches (whose enters and
 *   exits interleave), no more edges leave it than its exits times its out-edges;
 * - every enter of a node consumes an arrival: one per Send branch on a fan-out edge, all of
 *   them (a join) otherwise; no node is entered without one, no arrival is left unconsumed;
 * - the run ends with an edge into `__end__`, and nothing is entered after it.
 */
export function chartWalkProblems(trace: readonly TraceEvent[], chart: Chart): string[] {
  const problems: string[] = [];
  const arrivals = new Map<string, { fanout: number; other: number }>();
  const lastEvent = new Map<string, 'enter' | 'exit'>();
  const exits = new Map<string, number>();
  const departures = new Map<string, number>();
  const parallel = new Set(chart.nodes.filter((n) => n.kind === 'parallel').map((n) => n.id));
  const outDegree = (node: string) => chart.edges.filter((e) => e.from === node).length;
  let started = false;
  let ended = false;
  for (const event of trace) {
    if (event.kind === 'enter' || event.kind === 'exit') {
      if (event.kind === 'enter') {
        if (ended) problems.push(`${event.node} entered after the run reached __end__`);
        const a = arrivals.get(event.node);
        if (!a || a.fanout + a.other === 0) problems.push(`${event.node} entered with no edge taken into it (seq ${event.seq})`);
        else if (a.fanout > 0) a.fanout--;
        else a.other = 0;
      }
      lastEvent.set(event.node, event.kind);
      if (event.kind === 'exit') exits.set(event.node, (exits.get(event.node) ?? 0) + 1);
      continue;
    }
    if (event.kind !== 'transition') continue;
    const t = event.data as unknown as TransitionData;
    if (event.node !== t.from) problems.push(`transition ${t.from}→${t.to} emitted at node ${event.node}`);
    const edge = chart.edges.find((e) => e.from === t.from && e.to === t.to);
    if (!edge) {
      problems.push(`${t.from}→${t.to} is not an edge of the chart`);
      continue;
    }
    if (edge.guard !== t.guard) problems.push(`${t.from}→${t.to}: guard ${String(t.guard)}, chart says ${String(edge.guard)}`);
    if (edge.kind === 'conditional' && edge.label !== undefined && edge.label !== t.label) problems.push(`${t.from}→${t.to}: label ${String(t.label)}, chart says ${edge.label}`);
    if (t.from === '__start__') {
      if (lastEvent.size > 0) problems.push('an edge left __start__ after a node had run');
    } else {
      const departed = (departures.get(t.from) ?? 0) + 1;
      departures.set(t.from, departed);
      const finished = parallel.has(t.from)
        ? departed <= (exits.get(t.from) ?? 0) * outDegree(t.from)
        : lastEvent.get(t.from) === 'exit';
      if (!finished) problems.push(`${t.from}→${t.to} taken before ${t.from} finished (seq ${event.seq})`);
    }
    started = true;
    if (t.to === '__end__') {
      ended = true;
      continue;
    }
    const a = arrivals.get(t.to) ?? { fanout: 0, other: 0 };
    if (edge.kind === 'fanout') a.fanout++;
    else a.other++;
    arrivals.set(t.to, a);
  }
  if (!started) problems.push('no transition at all');
  if (!ended) problems.push('the run never reached __end__');
  for (const [node, a] of arrivals) if (a.fanout + a.other > 0) problems.push(`${node} was reached but never entered`);
  return problems;
}
