import { START, StateGraph, type AnnotationRoot, type StateDefinition, type StateType, type UpdateType } from '@langchain/langgraph';
import { MultihopError } from '@multihop/core';
import { CompiledWorkflowGraph, type GraphShape, type LangGraphCompiled } from './CompiledWorkflowGraph';
import { NamedRouter, type FanOutRouter, type Router } from './NamedRouter';
import { TracedNode, type NodeBody } from './TracedNode';

export interface NodeOptions<State> {
  /** The node's label in the chart (its id stays the name). */
  label?: string;
  /** The id of the workflow this node runs whole (a router's candidate): the chart draws a `workflow` node. */
  workflow?: string;
  /** Data for the node's `enter` trace event, read from the state the node receives. */
  enter?: (state: State) => Record<string, unknown>;
}

type Source = string;
type Target = string;

interface NodeEntry {
  name: string;
  body: NodeBody<never, unknown, never>;
  options: NodeOptions<never>;
}

type RouteEntry =
  | { kind: 'route'; from: Source; router: Router<never, string, never>; paths: Record<string, Target> }
  | { kind: 'fanOut'; from: Source; router: FanOutRouter<never, never>; targets: Target[] };

/**
 * Builds a LangGraph StateGraph where each node is named once and each router is named by its
 * own function: `graph.node('plan', async (state, { ctx }) => …)` registers the LangGraph node
 * and runs its body as chart node `plan`; `graph.route('esc', escDecision, { CONTINUE: …, STOP: … })`
 * makes `escDecision` the guard of those edges in the chart and in the trace. Every edge a run
 * takes is reported as a `transition` event, so the trace can light the chart up.
 *
 * `Extras` is what the method adds to the per-run runtime beside `ctx` (see `withRuntime`).
 */
export class WorkflowGraph<SD extends StateDefinition, Extras extends object = object> {
  private readonly nodes: NodeEntry[] = [];
  private readonly edges: Array<[Source, Target]> = [];
  private readonly routes: RouteEntry[] = [];

  constructor(readonly state: AnnotationRoot<SD>) {}

  /** Declares (for the type checker only) what the method adds to the runtime beside `ctx`. */
  withRuntime<MethodExtras extends object>(): WorkflowGraph<SD, MethodExtras> {
    return this as unknown as WorkflowGraph<SD, MethodExtras>;
  }

  /** Registers node `name`: LangGraph runs `body`, inside `ctx.node(name, …)`. */
  node(name: string, body: NodeBody<StateType<SD>, UpdateType<SD>, Extras>, options: NodeOptions<StateType<SD>> = {}): this {
    if (this.nodes.some((n) => n.name === name)) throw new MultihopError('LANGGRAPH_GRAPH', `node ${name} is registered twice`);
    // LangGraph refuses it too, but only when the graph compiles, with its own stack and no hint.
    if (Object.prototype.hasOwnProperty.call(this.state.spec, name)) {
      throw new MultihopError('LANGGRAPH_GRAPH', `node "${name}" has the name of a state channel; LangGraph needs node and channel names distinct (name the node for what it does, "${name}_step", or the channel for what it holds)`);
    }
    this.nodes.push({ name, body: body as NodeEntry['body'], options: options as NodeOptions<never> });
    return this;
  }

  /** An unconditional edge; `START` and `END` are LangGraph's. */
  edge(from: Source, to: Target): this {
    this.edges.push([from, to]);
    return this;
  }

  /**
   * A conditional edge: `router` returns a key of `paths`, the node (or END) to go to. The
   * router's function name is the guard, so give it one (`function escDecision(state) {…}`).
   */
  route<Key extends string>(from: Source, router: Router<StateType<SD>, Key, Extras>, paths: Record<Key, Target>): this {
    this.routes.push({ kind: 'route', from, router: router as Router<never, string, never>, paths: { ...paths } });
    return this;
  }

  /**
   * A fan-out: `router` returns one LangGraph `Send` per parallel branch, each to one of
   * `targets`; the branches run in the same superstep. The router's function name is the guard.
   */
  fanOut(from: Source, router: FanOutRouter<StateType<SD>, Extras>, targets: Target[]): this {
    this.routes.push({ kind: 'fanOut', from, router: router as FanOutRouter<never, never>, targets: [...targets] });
    return this;
  }

  compile(): CompiledWorkflowGraph<SD, Extras> {
    const targetsOf = new Map<Source, Target[]>();
    for (const [from, to] of this.edges) targetsOf.set(from, [...(targetsOf.get(from) ?? []), to]);

    // Node names are only known at run time here (methods add a variant's nodes in a loop), so
    // LangGraph's typed builder is used untyped; it still checks every name when it compiles.
    const graph = new StateGraph(this.state) as unknown as LooseStateGraph;
    for (const { name, body, options } of this.nodes) {
      graph.addNode(name, new TracedNode(name, body, options.enter, targetsOf.get(name) ?? []));
    }
    for (const [from, to] of this.edges) graph.addEdge(from, to);

    const shape: GraphShape = { routers: {}, choices: [], fanOut: [], parallel: [], labels: {}, workflows: {}, startTargets: targetsOf.get(START) ?? [] };
    for (const route of this.routes) {
      const guard = route.router.name;
      if (!guard) throw new MultihopError('LANGGRAPH_GRAPH', `the router of ${route.from}'s conditional edge has no name; name the function, it is the chart's guard`);
      if (shape.routers[route.from]) throw new MultihopError('LANGGRAPH_GRAPH', `${route.from} has two routers (${shape.routers[route.from]}, ${guard})`);
      shape.routers[route.from] = guard;
      if (route.kind === 'route') {
        graph.addConditionalEdges(route.from, new NamedRouter(route.from, guard, route.router, { kind: 'route', paths: route.paths }), route.paths);
        shape.choices.push(route.from);
      } else {
        graph.addConditionalEdges(route.from, new NamedRouter(route.from, guard, route.router, { kind: 'fanOut', targets: route.targets }), route.targets);
        shape.fanOut.push(route.from);
        shape.parallel.push(...route.targets.filter((t) => !shape.parallel.includes(t)));
      }
    }
    for (const { name, options } of this.nodes) {
      if (options.label) shape.labels[name] = options.label;
      if (options.workflow) shape.workflows[name] = options.workflow;
    }
    return new CompiledWorkflowGraph<SD, Extras>(graph.compile(), shape, (checkpointer) => graph.compile({ checkpointer }));
  }
}

/** Starts a graph over `state` (an `Annotation.Root`); see WorkflowGraph. */
export function workflowGraph<SD extends StateDefinition>(state: AnnotationRoot<SD>): WorkflowGraph<SD> {
  return new WorkflowGraph(state);
}

interface LooseStateGraph {
  addNode(name: string, node: unknown): LooseStateGraph;
  addEdge(from: string, to: string): LooseStateGraph;
  addConditionalEdges(from: string, path: unknown, pathMap: Record<string, string> | string[]): LooseStateGraph;
  compile(options?: { checkpointer?: unknown }): LangGraphCompiled;
}
