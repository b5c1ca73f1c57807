import {
  Background,
  Controls,
  EdgeLabelRenderer,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import { useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Chart, ChartEdge, ChartNode } from './types';
import { edgeIndexOf, edgeKey, emptyRunState, type ChartRunState } from '../trace/chartState';
import { nodeAriaLabel } from './a11y';
import { layoutChart, nodeCaption, type ChartLayout, type Point } from './layout';

export type NodeState = 'active' | 'visited' | 'idle';

export interface ChartViewProps {
  chart: Chart;
  /**
   * Where a run stands on the chart: active and visited nodes (and those only reached by a
   * transition, shown as visited), taken edges with the latest emphasised, and the order nodes
   * lit up (exposed as `data-lit-order`). Without it, the bare chart.
   */
  run?: ChartRunState;
  /** The node whose details are open. */
  selected?: string;
  onNodeClick?: (id: string) => void;
  /** Smaller chrome (no zoom controls), for side-by-side and inline diagrams. */
  compact?: boolean;
  /** Tallest the view grows to; it shrinks to the chart's own height below that. */
  maxHeight?: number;
  testId?: string;
}

interface StateNodeData extends Record<string, unknown> {
  node: ChartNode;
  state: NodeState;
  visits: number;
  selected: boolean;
}

interface RouteEdgeData extends Record<string, unknown> {
  edge: ChartEdge;
  points: Point[];
  label?: { text: string; x: number; y: number; width: number; height: number };
  taken: boolean;
  latest: boolean;
}

type StateNodeType = Node<StateNodeData, 'state'>;
type CompoundNodeType = Node<StateNodeData, 'compound'>;
type RouteEdgeType = Edge<RouteEdgeData, 'route'>;

const nodeTypes = { state: StateNode, compound: CompoundNode };
const edgeTypes = { route: RouteEdge };

/** A workflow's state chart, laid out by ELK and drawn by React Flow, lit by a run's state. */
export function ChartView(props: ChartViewProps) {
  return (
    <ReactFlowProvider>
      <ChartCanvas {...props} />
    </ReactFlowProvider>
  );
}

function ChartCanvas({
  chart,
  run = emptyRunState,
  selected,
  onNodeClick,
  compact = false,
  maxHeight = 640,
  testId = 'chart',
}: ChartViewProps) {
  const chartKey = useMemo(() => JSON.stringify(chart), [chart]);
  const [layout, setLayout] = useState<{ key: string; layout: ChartLayout } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [fittedKey, setFittedKey] = useState<string | undefined>();
  const [container, setContainer] = useState<HTMLDivElement | null>(null);

  useEffect(() => {
    let current = true;
    layoutChart(chart).then(
      (result) => current && setLayout({ key: chartKey, layout: result }),
      (reason: unknown) => current && setError(String(reason)),
    );
    return () => {
      current = false;
    };
    // The chart's JSON is the identity: a rebuilt but equal chart keeps its layout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chartKey]);

  const placed = layout?.key === chartKey ? layout.layout : undefined;
  const { visits: visited } = run;
  const activeSet = useMemo(() => new Set(run.active), [run.active]);
  const reachedSet = useMemo(() => new Set(run.reached), [run.reached]);
  // The chart edges taken, by index: of two edges joining the same nodes, the one whose guard the
  // transition was taken under.
  const takenIndex = useMemo(() => new Set(run.takenTransitions.map((t) => edgeIndexOf(chart.edges, t)).filter((i) => i >= 0)), [chart, run.takenTransitions]);
  const latestIndex = useMemo(() => (run.lastTransition ? edgeIndexOf(chart.edges, run.lastTransition) : -1), [chart, run.lastTransition]);

  const nodes = useMemo<Array<StateNodeType | CompoundNodeType>>(() => {
    if (!placed) return [];
    return placed.nodes.map((item) => {
      const visits = visited[item.node.id] ?? 0;
      const state: NodeState = activeSet.has(item.node.id) ? 'active' : visits > 0 || reachedSet.has(item.node.id) ? 'visited' : 'idle';
      const parent = item.node.parent && placed.nodes.some((other) => other.node.id === item.node.parent) ? item.node.parent : undefined;
      return {
        id: item.node.id,
        type: item.compound ? 'compound' : 'state',
        position: { x: item.x, y: item.y },
        width: item.width,
        height: item.height,
        // Sizes and handles are known from the layout: given here, React Flow keeps them across
        // every re-render with new run state instead of waiting to measure the DOM again.
        measured: { width: item.width, height: item.height },
        handles: [
          { type: 'target' as const, position: Position.Top, x: item.width / 2, y: 0, width: 1, height: 1 },
          { type: 'source' as const, position: Position.Bottom, x: item.width / 2, y: item.height, width: 1, height: 1 },
        ],
        style: { width: item.width, height: item.height },
        ...(parent ? { parentId: parent, extent: 'parent' as const } : {}),
        ...(item.compound ? { zIndex: -1 } : {}),
        draggable: false,
        connectable: false,
        selectable: false,
        ariaLabel: nodeAriaLabel(item.node, state, visits),
        // A node that opens something on click is a button to the keyboard too (Enter/Space, below).
        ...(onNodeClick ? { ariaRole: 'button' as const } : {}),
        data: { node: item.node, state, visits, selected: selected === item.node.id },
      };
    });
  }, [placed, visited, activeSet, reachedSet, selected, onNodeClick]);

  const edges = useMemo<RouteEdgeType[]>(() => {
    if (!placed) return [];
    return placed.edges.map((routed) => {
      const taken = takenIndex.has(routed.index);
      const latest = latestIndex === routed.index;
      return {
        id: `e${routed.index}`,
        type: 'route',
        source: routed.edge.from,
        target: routed.edge.to,
        selectable: false,
        focusable: false,
        zIndex: 1,
        markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14, color: latest ? '#d9480f' : taken ? '#1c7ed6' : '#868e96' },
        data: { edge: routed.edge, points: routed.points, ...(routed.label ? { label: routed.label } : {}), taken, latest },
      };
    });
  }, [placed, takenIndex, latestIndex]);

  const width = useContainerWidth(container);
  // As tall as the chart drawn at the zoom that fits its width, within [minimum, maxHeight].
  const height = placed
    ? Math.round(Math.max(compact ? 120 : 220, Math.min(maxHeight, placed.height * Math.min(1, (width - 32) / Math.max(1, placed.width)) + 32)))
    : compact
      ? 160
      : Math.min(maxHeight, 360);

  return (
    <div
      ref={setContainer}
      className={`chart-view${compact ? ' chart-compact' : ''}`}
      style={{ height }}
      data-testid={testId}
      data-chart-id={chart.id}
      data-layout={placed && fittedKey === chartKey ? 'done' : 'pending'}
      data-lit-order={run.litOrder.join(',')}
      // React Flow answers Enter/Space on a focused node only when elements are selectable (they are
      // not: the page, not React Flow, keeps what is selected), so the keyboard's click is handled here.
      onKeyDown={onNodeClick ? (event) => openFocusedNode(event, onNodeClick) : undefined}
    >
      {error ? <p className="error">Layout failed: {error}</p> : null}
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick ? (_event, node) => onNodeClick(node.id) : undefined}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        zoomOnScroll={false}
        preventScrolling={false}
        panOnScroll={false}
        minZoom={0.2}
        maxZoom={2}
      >
        <FitOnLayout layout={placed} container={container} onFitted={() => setFittedKey(chartKey)} />
        {compact ? null : <Controls showInteractive={false} position="top-right" />}
        <Background gap={18} size={1} color="#e4e7eb" />
      </ReactFlow>
    </div>
  );
}

/** Enter or Space on a focused chart node does what a click on it does. */
function openFocusedNode(event: KeyboardEvent<HTMLDivElement>, onNodeClick: (id: string) => void): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const target = event.target as HTMLElement;
  if (!target.classList.contains('react-flow__node')) return;
  const id = target.getAttribute('data-id');
  if (!id) return;
  event.preventDefault();
  onNodeClick(id);
}

function useContainerWidth(container: HTMLDivElement | null): number {
  const [width, setWidth] = useState(800);
  useEffect(() => {
    if (!container) return;
    setWidth(container.clientWidth);
    const observer = new ResizeObserver(() => setWidth(container.clientWidth));
    observer.observe(container);
    return () => observer.disconnect();
  }, [container]);
  return width;
}

/**
 * Fits the laid-out chart into the container (never zooming past 1), again whenever the
 * container's size changes, then reports the layout done.
 */
function FitOnLayout({ layout, container, onFitted }: { layout: ChartLayout | undefined; container: HTMLDivElement | null; onFitted: () => void }) {
  const flow = useReactFlow();
  useEffect(() => {
    if (!layout || !container) return;
    let frame = 0;
    const fit = (): void => {
      const width = container.clientWidth;
      const height = container.clientHeight;
      if (!width || !height) return;
      const pad = 16;
      const zoom = Math.min(1, (width - 2 * pad) / Math.max(1, layout.width), (height - 2 * pad) / Math.max(1, layout.height));
      void flow.setViewport({ x: (width - layout.width * zoom) / 2, y: Math.max(pad, (height - layout.height * zoom) / 2), zoom });
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => onFitted());
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(container);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
    // onFitted is a fresh closure each render; the layout and the container are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [layout, container, flow]);
  return null;
}

/** The box of a chart node, leaf or compound: its state as classes and data attributes, its title, its two handles. */
function NodeBox({ data, compound = false, children }: { data: StateNodeData; compound?: boolean; children: ReactNode }) {
  const { node, state, visits, selected } = data;
  return (
    <div
      data-testid="chart-node"
      data-node-id={node.id}
      data-state={state}
      data-kind={node.kind}
      data-visits={visits}
      className={`chart-node${compound ? ' chart-compound' : ''} kind-${node.kind} state-${state}${selected ? ' is-selected' : ''}`}
      title={`${node.label ?? node.id} (${node.kind}${visits ? `, entered ${visits}×` : ''}${state === 'active' ? ', active' : ''})`}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="chart-handle" />
      {children}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="chart-handle" />
    </div>
  );
}

function StateNode({ data }: NodeProps<StateNodeType>) {
  const { node, visits } = data;
  const { title, detail } = nodeCaption(node);
  const round = node.kind === 'start' || node.kind === 'end';
  return (
    <NodeBox data={data}>
      {node.kind === 'choice' ? (
        <svg className="choice-shape" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          <polygon points="0,50 14,0 86,0 100,50 86,100 14,100" vectorEffect="non-scaling-stroke" />
        </svg>
      ) : null}
      {round ? (
        node.id.startsWith('__') ? null : <span className="end-label">{title}</span>
      ) : (
        <div className="node-text">
          {node.kind === 'parallel' ? <span className="parallel-mark" title="parallel branches">∥</span> : null}
          <span className="node-title">{title}</span>
          {detail ? <span className="node-detail">{detail}</span> : null}
        </div>
      )}
      {visits > 1 ? <span className="visit-count">×{visits}</span> : null}
    </NodeBox>
  );
}

function CompoundNode({ data }: NodeProps<CompoundNodeType>) {
  return (
    <NodeBox data={data} compound>
      <span className="compound-title">{nodeCaption(data.node).title}</span>
    </NodeBox>
  );
}

/** An orthogonal route with rounded corners. */
function roundedPath(points: Point[], radius = 7): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let path = `M${first.x},${first.y}`;
  for (let i = 0; i < rest.length; i++) {
    const corner = rest[i] as Point;
    const next = rest[i + 1];
    const prev = (i === 0 ? first : rest[i - 1]) as Point;
    if (!next) {
      path += ` L${corner.x},${corner.y}`;
      break;
    }
    const inLength = Math.hypot(corner.x - prev.x, corner.y - prev.y);
    const outLength = Math.hypot(next.x - corner.x, next.y - corner.y);
    const r = Math.min(radius, inLength / 2, outLength / 2);
    const before = { x: corner.x - ((corner.x - prev.x) / (inLength || 1)) * r, y: corner.y - ((corner.y - prev.y) / (inLength || 1)) * r };
    const after = { x: corner.x + ((next.x - corner.x) / (outLength || 1)) * r, y: corner.y + ((next.y - corner.y) / (outLength || 1)) * r };
    path += ` L${before.x},${before.y} Q${corner.x},${corner.y} ${after.x},${after.y}`;
  }
  return path;
}

function RouteEdge({ data, markerEnd, sourceX, sourceY, targetX, targetY }: EdgeProps<RouteEdgeType>) {
  if (!data) return null;
  const { edge, points, label, taken, latest } = data;
  const path = points.length >= 2 ? roundedPath(points) : `M${sourceX},${sourceY} L${targetX},${targetY}`;
  const kind = edge.kind ?? 'always';
  const key = edgeKey(edge.from, edge.to);
  const className = `chart-edge edge-${kind}${taken ? ' is-taken' : ''}${latest ? ' is-latest' : ''}`;
  return (
    <>
      <g className={className} data-edge={key} data-taken={taken ? 'true' : 'false'} data-latest={latest ? 'true' : undefined} data-edge-kind={kind} data-edge-guard={edge.guard}>
        <path d={path} className="chart-edge-hit" />
        <path d={path} className="chart-edge-path" markerEnd={markerEnd} />
      </g>
      {label ? (
        <EdgeLabelRenderer>
          <div
            className={`chart-edge-label${taken ? ' is-taken' : ''}${latest ? ' is-latest' : ''}`}
            data-edge-label={key}
            style={{ transform: `translate(${label.x}px, ${label.y}px)`, minWidth: label.width }}
          >
            {edge.label ? <span>{edge.label}</span> : null}
            {edge.guard ? <span className="guard">[{edge.guard}]</span> : null}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}
