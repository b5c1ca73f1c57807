import type { Chart, ChartEdge, ChartNode } from './chart';

/** The shape of LangGraph's drawable graph (`compiled.getGraph()`); structural, so core needs no LangGraph. */
export interface LangGraphDrawable {
  nodes: Record<string, { id: string; name?: string }>;
  edges: Array<{ source: string; target: string; data?: string; conditional?: boolean }>;
}

export interface LangGraphChartOptions {
  id: string;
  title?: string;
  /** The router (conditional-edge function) of each branching node, shown as the guard of its edges. */
  routers?: Record<string, string>;
  /** Nodes whose conditional edges fan out with `Send` (one branch per item, in parallel). */
  fanOut?: string[];
  /** Nodes that decide between routes (drawn as choices). */
  choices?: string[];
  /** Nodes that run as parallel branches. */
  parallel?: string[];
  /** Display labels per node id. */
  labels?: Record<string, string>;
  /** Nodes that run another whole workflow, with its id (drawn as `workflow` nodes). */
  workflows?: Record<string, string>;
}

/**
 * A Chart read off a compiled LangGraph graph, so the chart is the graph that runs, not a
 * drawing beside it. `__start__` / `__end__` become start and end nodes; conditional edges keep
 * their branch label and name their router as the guard.
 */
export function chartFromLangGraph(graph: LangGraphDrawable, options: LangGraphChartOptions): Chart {
  const nodes: ChartNode[] = Object.values(graph.nodes).map((node) => ({
    id: node.id,
    ...(options.labels?.[node.id] ? { label: options.labels[node.id] } : {}),
    ...(options.workflows?.[node.id] ? { workflow: options.workflows[node.id] } : {}),
    kind:
      options.workflows?.[node.id]
        ? 'workflow'
        : node.id === '__start__'
        ? 'start'
        : node.id === '__end__'
          ? 'end'
          : options.choices?.includes(node.id)
            ? 'choice'
            : options.parallel?.includes(node.id)
              ? 'parallel'
              : 'step',
  }));
  const edges: ChartEdge[] = graph.edges.map((edge) => {
    const router = options.routers?.[edge.source];
    const kind: ChartEdge['kind'] = !edge.conditional ? 'always' : options.fanOut?.includes(edge.source) ? 'fanout' : 'conditional';
    return {
      from: edge.source,
      to: edge.target,
      kind,
      ...(edge.conditional && edge.data && edge.data !== edge.target ? { label: edge.data } : {}),
      ...(edge.conditional && router ? { guard: router } : {}),
    };
  });
  const guards = [...new Set(edges.flatMap((e) => (e.guard ? [e.guard] : [])))];
  return { id: options.id, ...(options.title ? { title: options.title } : {}), engine: 'langgraph', nodes, edges, guards };
}
