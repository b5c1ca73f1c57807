import type { Chart, TraceEvent } from '../api/client';
import type { ChartNode, ChartEdge } from '../chart/types';
import { activeNodes, nodeTally, tallyEvent, type ChartRunState, type NodeTally } from './chartState';
import { list, num, obj, str, strings } from './fields';

/** A diagram built from a run's own decisions: HERA's chosen topology, MAO-ARAG's executor workflows. */
export interface DecisionDiagram {
  kind: 'topology' | 'workflow';
  title: string;
  chart: Chart;
  state: ChartRunState;
}

const MAO_AGENTS: Record<string, string> = {
  QR: 'QR · query rewriter',
  R: 'R · retriever',
  DS: 'DS · document selector',
  AG: 'AG · answer generator',
  QDS: 'QDS · serial decomposition',
  QDP: 'QDP · parallel decomposition',
};

/** The diagram of the decisions among events[0..upto], or undefined when the run made none of these. */
export function decisionDiagram(events: readonly TraceEvent[], upto: number = events.length - 1, finished = false): DecisionDiagram | undefined {
  const seen = events.slice(0, Math.min(upto, events.length - 1) + 1);
  if (seen.some((event) => event.kind === 'decision' && event.data.decision === 'topology')) return heraTopology(seen, finished);
  if (seen.some((event) => event.kind === 'decision' && event.data.decision === 'workflow' && typeof event.data.workflow === 'string')) return maoWorkflows(seen, finished);
  return undefined;
}

const stateOf = (t: NodeTally, finished: boolean): ChartRunState => ({
  active: activeNodes(t, finished),
  visits: t.visits,
  reached: [],
  takenTransitions: [],
  litOrder: [],
});

/** HERA: the latest topology the orchestrator chose (after repairs), steps wired by depends_on, lit as agents run their steps. */
function heraTopology(events: readonly TraceEvent[], finished: boolean): DecisionDiagram {
  const decision = [...events].reverse().find((event) => event.kind === 'decision' && event.data.decision === 'topology');
  const topology = obj(decision?.data.topology) ?? {};
  const order = list(topology.execution_order)
    .map((step) => obj(step))
    .filter((step): step is Record<string, unknown> => Boolean(step));
  const nodes: ChartNode[] = [{ id: '__start__', kind: 'start' }];
  const edges: ChartEdge[] = [];
  const stepIds = new Set(order.map((step) => String(step.step)));
  const dependedOn = new Set<string>();
  for (const step of order) {
    const id = String(step.step);
    nodes.push({ id: `step:${id}`, label: `${str(step.agent) ?? '?'} · step ${id}`, kind: 'step' });
    const deps = strings(step.depends_on).filter((dep) => stepIds.has(dep));
    if (deps.length === 0) edges.push({ from: '__start__', to: `step:${id}`, kind: 'always' });
    for (const dep of deps) {
      dependedOn.add(dep);
      edges.push({ from: `step:${dep}`, to: `step:${id}`, kind: 'always' });
    }
  }
  nodes.push({ id: '__end__', kind: 'end' });
  for (const step of order) {
    const id = String(step.step);
    if (!dependedOn.has(id)) edges.push({ from: `step:${id}`, to: '__end__', kind: 'always' });
  }
  const t = nodeTally();
  for (const event of events) {
    const step = event.data.step;
    if ((event.kind === 'enter' || event.kind === 'exit') && step !== undefined && stepIds.has(String(step))) tallyEvent(t, `step:${String(step)}`, event.kind);
  }
  const agents = strings(topology.selected_agents);
  return {
    kind: 'topology',
    title: `Topology chosen by the orchestrator${str(decision?.data.source) ? ` (${str(decision?.data.source)})` : ''}${agents.length ? `: ${agents.join(', ')}` : ''}`,
    chart: { id: 'hera-topology', engine: 'plain', nodes, edges, guards: [] },
    state: stateOf(t, finished),
  };
}

interface Slot {
  key: string;
  level: string;
  slot: string;
  question: string;
  agents: string[];
}

/** MAO-ARAG: the planner's executor workflow per question slot (top question, then sub-questions), lit as the executors run. */
function maoWorkflows(events: readonly TraceEvent[], finished: boolean): DecisionDiagram {
  const slots = new Map<string, Slot>();
  const t = nodeTally();
  let current: Slot | undefined;
  for (const event of events) {
    if (event.kind === 'decision' && event.data.decision === 'workflow') {
      const workflow = str(event.data.workflow);
      if (!workflow) continue;
      const level = str(event.data.level) ?? 'top';
      const slot = String(num(event.data.slot) ?? str(event.data.slot) ?? 0);
      const key = `${level}-${slot}`;
      const entry: Slot = { key, level, slot, question: str(event.data.question) ?? '', agents: workflow.split('+').filter(Boolean) };
      slots.delete(key);
      slots.set(key, entry);
      current = entry;
      continue;
    }
    if ((event.kind === 'enter' || event.kind === 'exit') && current) {
      const node = event.node;
      if (current.agents.includes(node)) tallyEvent(t, `${current.key}/${node}`, event.kind);
    }
  }
  const nodes: ChartNode[] = [{ id: '__start__', kind: 'start' }];
  const edges: ChartEdge[] = [];
  const ordered = [...slots.values()].sort((a, b) => (a.level === 'top' ? -1 : b.level === 'top' ? 1 : Number(a.slot) - Number(b.slot)));
  const top = ordered.find((slot) => slot.level === 'top');
  const parallel = top?.agents.includes('QDP') ?? false;
  let previousLast: string | undefined;
  const ends: string[] = [];
  for (const slot of ordered) {
    const group = `slot:${slot.key}`;
    const name = slot.level === 'top' ? 'question' : `sub-question ${slot.slot}`;
    nodes.push({ id: group, label: `${name}: ${slot.question}`, kind: 'step' });
    const ids = slot.agents.map((agent) => `${slot.key}/${agent}`);
    slot.agents.forEach((agent, i) => {
      nodes.push({ id: ids[i] as string, label: MAO_AGENTS[agent] ?? agent, kind: agent === 'QDP' ? 'parallel' : 'step', parent: group });
      if (i > 0) edges.push({ from: ids[i - 1] as string, to: ids[i] as string, kind: 'always' });
    });
    const first = ids[0];
    const last = ids[ids.length - 1];
    if (!first || !last) continue;
    if (slot.level === 'top') {
      edges.push({ from: '__start__', to: first, kind: 'always' });
      previousLast = last;
      if (!slot.agents.some((agent) => agent === 'QDS' || agent === 'QDP')) ends.push(last);
    } else {
      const from = parallel ? top && `${top.key}/${top.agents[top.agents.length - 1]}` : previousLast;
      if (from) edges.push({ from, to: first, kind: parallel ? 'fanout' : 'always' });
      if (!parallel) previousLast = last;
      if (parallel) ends.push(last);
    }
  }
  if (!parallel && previousLast && !ends.includes(previousLast) && ordered.length > 1) ends.push(previousLast);
  nodes.push({ id: '__end__', kind: 'end' });
  for (const end of ends) edges.push({ from: end, to: '__end__', kind: 'always' });
  return {
    kind: 'workflow',
    title: `Executor workflows chosen by the planner: ${ordered.map((slot) => `${slot.level === 'top' ? 'question' : `#${slot.slot}`} ${slot.agents.join('+')}`).join(' · ')}`,
    chart: { id: 'mao-arag-workflows', engine: 'plain', nodes, edges, guards: [] },
    state: stateOf(t, finished),
  };
}
