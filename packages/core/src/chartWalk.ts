import type { Chart } from './chart';
import type { TraceEvent, TransitionData } from './types';

/**
 * The problems that keep a run's trace from being a walk on `chart`, in Pregel's sense (parallel
 * branches allowed); empty when it is one:
 * - every transition is an edge of the chart, with the chart's guard and label;
 * - the first transitions leave `__start__`; each later one leaves a node that has finished: its
 *   latest enter/exit is an exit, or, for a node that runs as parallel branches (whose enters and
 *   exits interleave), no more edges leave it than its exits times its out-edges;
 * - every enter of a node consumes an arrival: one per Send branch on a fan-out edge, all of
 *   them (a join) otherwise; no node is entered without one, no arrival is left unconsumed (an
 *   XState state no actor runs in, never entered, is passed through: leaving it consumes it);
 * - the run ends with an edge into an end node (LangGraph's `__end__`, an XState machine's final
 *   state: `done`, `failed`), and nothing is entered after it.
 *
 * - a node run once leaves by one edge (a fan-out's Send branches aside), and no edge is taken
 *   after the run reached its end.
 *
 * Both engine adapters emit the transitions it reads, so it checks a run on either engine. On
 * XState a state with no node event in the trace counts as passed through, so a state whose
 * events were all lost is not caught here (the conformance suite's node checks see its prompts).
 */
export function chartWalkProblems(trace: readonly TraceEvent[], chart: Chart): string[] {
  const problems: string[] = [];
  const arrivals = new Map<string, { fanout: number; other: number }>();
  const lastEvent = new Map<string, 'enter' | 'exit'>();
  const exits = new Map<string, number>();
  const departures = new Map<string, number>();
  const leftSinceExit = new Map<string, number>();
  const parallel = new Set(chart.nodes.filter((n) => n.kind === 'parallel').map((n) => n.id));
  const outDegree = (node: string) => chart.edges.filter((e) => e.from === node).length;
  const ends = new Set(chart.nodes.filter((n) => n.kind === 'end').map((n) => n.id));
  // On XState only a state that invokes an actor is entered and exited (`ctx.node`); a state of
  // actions and eventless `always` transitions (a choice, a bookkeeping step) is passed through
  // without either, and its departure takes its arrival. A LangGraph node always runs.
  // A state where anything happened (an exit, a model call, a search, a decision) is one that runs.
  const active = new Set(trace.filter((e) => e.kind !== 'transition').map((e) => e.node));
  const transient = new Set(chart.engine === 'xstate' ? chart.nodes.filter((n) => n.kind !== 'start' && n.kind !== 'end' && !active.has(n.id)).map((n) => n.id) : []);
  let started = false;
  let ended = false;
  for (const event of trace) {
    if (event.kind === 'enter' || event.kind === 'exit') {
      if (event.kind === 'enter') {
        if (ended) problems.push(`${event.node} entered after the run reached its end`);
        const a = arrivals.get(event.node);
        if (!a || a.fanout + a.other === 0) problems.push(`${event.node} entered with no edge taken into it (seq ${event.seq})`);
        else if (a.fanout > 0) a.fanout--;
        else a.other = 0;
      }
      lastEvent.set(event.node, event.kind);
      if (event.kind === 'exit') {
        exits.set(event.node, (exits.get(event.node) ?? 0) + 1);
        leftSinceExit.set(event.node, 0);
      }
      continue;
    }
    if (event.kind !== 'transition') continue;
    const t = event.data as unknown as TransitionData;
    if (ended) problems.push(`${t.from}→${t.to} taken after the run reached its end (seq ${event.seq})`);
    if (event.node !== t.from) problems.push(`transition ${t.from}→${t.to} emitted at node ${event.node}`);
    // Two edges may join the same nodes under different guards (a guarded branch and the else): the one taken is the one whose guard and label match.
    const between = chart.edges.filter((e) => e.from === t.from && e.to === t.to);
    const edge = between.find((e) => e.guard === t.guard && (e.kind !== 'conditional' || e.label === undefined || e.label === t.label)) ?? between[0];
    if (!edge) {
      problems.push(`${t.from}→${t.to} is not an edge of the chart`);
      continue;
    }
    if (edge.guard !== t.guard) problems.push(`${t.from}→${t.to}: guard ${String(t.guard)}, chart says ${String(edge.guard)}`);
    if (edge.kind === 'conditional' && edge.label !== undefined && edge.label !== t.label) problems.push(`${t.from}→${t.to}: label ${String(t.label)}, chart says ${edge.label}`);
    if (t.from === '__start__') {
      if (lastEvent.size > 0) problems.push('an edge left __start__ after a node had run');
    } else if (transient.has(t.from)) {
      const a = arrivals.get(t.from);
      if (!a || a.fanout + a.other === 0) problems.push(`${t.from}→${t.to} left ${t.from} with no edge taken into it (seq ${event.seq})`);
      else if (a.fanout > 0) a.fanout--;
      else a.other = 0;
    } else {
      const departed = (departures.get(t.from) ?? 0) + 1;
      departures.set(t.from, departed);
      const finished = parallel.has(t.from)
        ? departed <= (exits.get(t.from) ?? 0) * outDegree(t.from)
        : lastEvent.get(t.from) === 'exit';
      if (!finished) problems.push(`${t.from}→${t.to} taken before ${t.from} finished (seq ${event.seq})`);
      // One run of a node leaves by one edge (a fan-out's Send branches aside): two would be two walks.
      if (!parallel.has(t.from) && edge.kind !== 'fanout') {
        const left = (leftSinceExit.get(t.from) ?? 0) + 1;
        leftSinceExit.set(t.from, left);
        if (left > 1) problems.push(`${t.from}→${t.to}: ${t.from} left by a second edge after one run (seq ${event.seq})`);
      }
    }
    started = true;
    if (ends.has(t.to)) {
      ended = true;
      continue;
    }
    const a = arrivals.get(t.to) ?? { fanout: 0, other: 0 };
    if (edge.kind === 'fanout') a.fanout++;
    else a.other++;
    arrivals.set(t.to, a);
  }
  if (!started) problems.push('no transition at all');
  if (!ended) problems.push(`the run never reached an end node (${[...ends].join(', ')})`);
  for (const [node, a] of arrivals) if (a.fanout + a.other > 0) problems.push(`${node} was reached but never ${transient.has(node) ? 'left' : 'entered'}`);
  return problems;
}
