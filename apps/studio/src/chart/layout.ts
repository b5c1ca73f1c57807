import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { Chart, ChartEdge, ChartNode } from './types';

export interface Point {
  x: number;
  y: number;
}

/** A node placed by ELK: position relative to its parent (as React Flow wants it), size. */
export interface PlacedNode {
  node: ChartNode;
  x: number;
  y: number;
  width: number;
  height: number;
  /** True when other nodes are nested in it. */
  compound: boolean;
}

/** An edge routed by ELK, in absolute coordinates. */
export interface RoutedEdge {
  edge: ChartEdge;
  index: number;
  points: Point[];
  label?: { text: string; x: number; y: number; width: number; height: number };
}

export interface ChartLayout {
  nodes: PlacedNode[];
  edges: RoutedEdge[];
  width: number;
  height: number;
}

const elk = new ELK();

/** The text an edge shows: its label and its guard in brackets. */
export function edgeText(edge: ChartEdge): string {
  return [edge.label, edge.guard ? `[${edge.guard}]` : undefined].filter(Boolean).join(' ');
}

/** The label a node shows, split into its name and what it invokes (`plan · invokes planAgent`). */
export function nodeCaption(node: ChartNode): { title: string; detail?: string } {
  const label = node.label ?? node.id;
  const at = label.indexOf(' · ');
  return at < 0 ? { title: label } : { title: label.slice(0, at), detail: label.slice(at + 3) };
}

const CHAR_WIDTH = 7.2;

/** The size a leaf node is drawn at, by kind and caption. */
function nodeSize(node: ChartNode): { width: number; height: number } {
  if (node.kind === 'start') return { width: 22, height: 22 };
  if (node.kind === 'end') return { width: 30, height: 30 };
  const { title, detail } = nodeCaption(node);
  const longest = Math.max(title.length, (detail?.length ?? 0) * 0.85);
  const width = Math.round(Math.min(230, Math.max(96, longest * CHAR_WIDTH + 28)));
  const lines = Math.ceil((title.length * CHAR_WIDTH) / (width - 24)) + (detail ? Math.ceil((detail.length * CHAR_WIDTH * 0.85) / (width - 24)) : 0);
  if (node.kind === 'choice') return { width: width + 40, height: Math.max(52, 22 + lines * 16) };
  return { width, height: Math.max(40, 18 + lines * 17) };
}

const cache = new Map<string, Promise<ChartLayout>>();

/** Lays a chart out top-down with ELK's layered algorithm; nested states become compound nodes. Cached by the chart's JSON. */
export function layoutChart(chart: Chart): Promise<ChartLayout> {
  const key = JSON.stringify(chart);
  let pending = cache.get(key);
  if (!pending) {
    pending = computeLayout(chart);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

async function computeLayout(chart: Chart): Promise<ChartLayout> {
  const ids = new Set(chart.nodes.map((node) => node.id));
  const childrenOf = new Map<string | undefined, ChartNode[]>();
  for (const node of chart.nodes) {
    const parent = node.parent && ids.has(node.parent) ? node.parent : undefined;
    const list = childrenOf.get(parent) ?? [];
    list.push(node);
    childrenOf.set(parent, list);
  }
  const toElk = (node: ChartNode): ElkNode => {
    const children = childrenOf.get(node.id);
    if (children?.length) {
      return {
        id: node.id,
        layoutOptions: { 'elk.padding': '[top=34,left=16,bottom=16,right=16]' },
        children: children.map(toElk),
      };
    }
    return { id: node.id, ...nodeSize(node) };
  };
  const edges: ElkExtendedEdge[] = chart.edges
    .map((edge, index) => ({ edge, index }))
    .filter(({ edge }) => ids.has(edge.from) && ids.has(edge.to))
    .map(({ edge, index }) => {
      const text = edgeText(edge);
      // Label and guard on two lines: narrow labels keep the layered layout from spreading out.
      const lines = [edge.label, edge.guard ? `[${edge.guard}]` : undefined].filter((line): line is string => Boolean(line));
      const width = Math.round(Math.max(0, ...lines.map((line) => line.length)) * 5.9 + 10);
      return {
        id: `e${index}`,
        sources: [edge.from],
        targets: [edge.to],
        ...(text ? { labels: [{ id: `e${index}-label`, text, width, height: lines.length * 14 + 2 }] } : {}),
      };
    });
  const graph: ElkNode = {
    id: '__root__',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.edgeCoords': 'ROOT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.spacing.nodeNodeBetweenLayers': '44',
      'elk.layered.spacing.edgeNodeBetweenLayers': '12',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '8',
      'elk.spacing.nodeNode': '24',
      'elk.spacing.edgeNode': '12',
      'elk.spacing.edgeEdge': '8',
      'elk.spacing.edgeLabel': '3',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: (childrenOf.get(undefined) ?? []).map(toElk),
    edges,
  };
  const result = await elk.layout(graph);
  const byId = new Map(chart.nodes.map((node) => [node.id, node]));
  const nodes: PlacedNode[] = [];
  const visit = (elkNode: ElkNode): void => {
    const node = byId.get(elkNode.id);
    if (node) {
      nodes.push({
        node,
        x: elkNode.x ?? 0,
        y: elkNode.y ?? 0,
        width: elkNode.width ?? 0,
        height: elkNode.height ?? 0,
        compound: Boolean(elkNode.children?.length),
      });
    }
    // Parents first: React Flow wants a parent before its children.
    for (const child of elkNode.children ?? []) visit(child);
  };
  for (const child of result.children ?? []) visit(child);
  const routed: RoutedEdge[] = [];
  const collect = (elkNode: ElkNode): void => {
    for (const elkEdge of elkNode.edges ?? []) {
      const index = Number(elkEdge.id.slice(1));
      const edge = chart.edges[index];
      if (!edge) continue;
      const points: Point[] = [];
      for (const section of elkEdge.sections ?? []) {
        points.push(section.startPoint, ...(section.bendPoints ?? []), section.endPoint);
      }
      const label = elkEdge.labels?.[0];
      routed.push({
        edge,
        index,
        points,
        ...(label?.text ? { label: { text: label.text, x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0 } } : {}),
      });
    }
    for (const child of elkNode.children ?? []) collect(child);
  };
  collect(result);
  routed.sort((a, b) => a.index - b.index);
  return { nodes, edges: routed, width: result.width ?? 0, height: result.height ?? 0 };
}
