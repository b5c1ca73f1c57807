/**
 * A method's state chart as plain data: derived from the real XState machine or LangGraph
 * graph (never drawn by hand beside it), serialisable to JSON and renderable as Mermaid.
 */
export interface Chart {
  /** The workflow id. */
  id: string;
  title?: string;
  engine: 'langgraph' | 'xstate' | 'plain';
  nodes: ChartNode[];
  edges: ChartEdge[];
  /** Names of every guard (conditions on edges), as the engine knows them. */
  guards: string[];
}

export interface ChartNode {
  id: string;
  label?: string;
  /** `workflow`: the node runs another whole workflow (a router's candidate), named in `workflow`. */
  kind: 'start' | 'end' | 'step' | 'choice' | 'parallel' | 'workflow';
  /** For a `workflow` node: the id of the workflow it runs (its own chart shows what happens inside). */
  workflow?: string;
  /** Enclosing compound state, for nested XState machines. */
  parent?: string;
}

export interface ChartEdge {
  from: string;
  to: string;
  /** Event or branch name shown on the edge. */
  label?: string;
  /** The guard that must hold to take the edge. */
  guard?: string;
  /** `conditional`: one of several routes; `fanout`: one branch per item, in parallel. */
  kind?: 'always' | 'conditional' | 'fanout';
}

/** Problems with a chart's structure (edges to unknown nodes, duplicate ids); empty when sound. */
export function validateChart(chart: Chart): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const node of chart.nodes) {
    if (ids.has(node.id)) problems.push(`duplicate node id "${node.id}"`);
    ids.add(node.id);
  }
  for (const edge of chart.edges) {
    if (!ids.has(edge.from)) problems.push(`edge from unknown node "${edge.from}"`);
    if (!ids.has(edge.to)) problems.push(`edge to unknown node "${edge.to}"`);
    if (edge.guard && !chart.guards.includes(edge.guard)) problems.push(`edge ${edge.from} → ${edge.to} names unlisted guard "${edge.guard}"`);
  }
  for (const node of chart.nodes) {
    if (node.parent && !ids.has(node.parent)) problems.push(`node "${node.id}" has unknown parent "${node.parent}"`);
  }
  return problems;
}

/** Renders a chart as a Mermaid flowchart (top-down; dashed edges are conditional, thick ones fan out). */
export function toMermaid(chart: Chart): string {
  const key = new Map<string, string>();
  chart.nodes.forEach((node, i) => key.set(node.id, `n${i}`));
  const ref = (id: string): string => key.get(id) ?? `unknown_${id.replace(/\W/g, '_')}`;
  const lines: string[] = ['flowchart TD'];
  const children = new Map<string | undefined, typeof chart.nodes>();
  for (const node of chart.nodes) {
    const list = children.get(node.parent) ?? [];
    list.push(node);
    children.set(node.parent, list);
  }
  const emit = (parent: string | undefined, indent: string): void => {
    for (const node of children.get(parent) ?? []) {
      if (children.has(node.id)) {
        lines.push(`${indent}subgraph ${ref(node.id)}["${escapeLabel(node.label ?? node.id)}"]`);
        emit(node.id, `${indent}  `);
        lines.push(`${indent}end`);
      } else {
        lines.push(`${indent}${ref(node.id)}${shape(node.kind, escapeLabel(node.label ?? node.id))}`);
      }
    }
  };
  emit(undefined, '  ');
  for (const edge of chart.edges) {
    const text = [edge.label, edge.guard ? `[${edge.guard}]` : undefined].filter(Boolean).join(' ');
    const arrow = edge.kind === 'conditional' ? '-.->' : edge.kind === 'fanout' ? '==>' : '-->';
    lines.push(`  ${ref(edge.from)} ${arrow}${text ? `|"${escapeLabel(text)}"|` : ''} ${ref(edge.to)}`);
  }
  return lines.join('\n');
}

function shape(kind: ChartNode['kind'], label: string): string {
  switch (kind) {
    case 'start':
      return `(("${label}"))`;
    case 'end':
      return `((("${label}")))`;
    case 'choice':
      return `{"${label}"}`;
    case 'parallel':
      return `[["${label}"]]`;
    case 'workflow':
      return `{{"${label}"}}`;
    default:
      return `["${label}"]`;
  }
}

function escapeLabel(text: string): string {
  return text.replace(/"/g, '#quot;');
}
