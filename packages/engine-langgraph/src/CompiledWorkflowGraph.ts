import { START, type StateDefinition, type StateType, type UpdateType } from '@langchain/langgraph';
import { chartFromLangGraph, type Chart, type LangGraphDrawable } from '@multihop/core';
import { runtimeConfig, type GraphRuntime } from './runtimeOf';

/** The part of LangGraph's compiled graph this package uses. */
export interface LangGraphCompiled {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  getGraph(): LangGraphDrawable;
}

/** What the builder registered, from which the chart's guards and node kinds are derived. */
export interface GraphShape {
  /** The guard (router function name) of each node with a conditional edge. */
  routers: Record<string, string>;
  /** Nodes whose router chooses one branch. */
  choices: string[];
  /** Nodes whose router fans out with `Send`. */
  fanOut: string[];
  /** Nodes that run as parallel `Send` branches. */
  parallel: string[];
  labels: Record<string, string>;
  /** Targets of START's static edges: reported as taken when a run starts. */
  startTargets: readonly string[];
}

export interface InvokeOptions {
  /** LangGraph's superstep limit (its default is 25). */
  recursionLimit?: number;
  signal?: AbortSignal;
}

/** A compiled multihop graph: the LangGraph graph, its chart, and a run that carries the runtime. */
export class CompiledWorkflowGraph<SD extends StateDefinition, Extras extends object = object> {
  constructor(
    /** The compiled LangGraph graph (for `getGraph()`, drawing, streaming). */
    readonly graph: LangGraphCompiled,
    readonly shape: GraphShape,
  ) {}

  /** The chart read off the compiled graph, with guards, choices and fan-out from what was registered. */
  chart(meta: { id: string; title?: string }): Chart {
    const { routers, choices, fanOut, parallel, labels } = this.shape;
    return chartFromLangGraph(this.graph.getGraph(), { ...meta, routers, choices, fanOut, parallel, labels });
  }

  /**
   * Runs the graph once with `runtime` in `configurable` (see RUNTIME_KEY). The edges out of
   * START are reported here, since LangGraph's own start node runs none of our code.
   */
  async invoke(input: UpdateType<SD>, runtime: GraphRuntime<Extras>, options: InvokeOptions = {}): Promise<StateType<SD>> {
    for (const to of this.shape.startTargets) runtime.ctx.transition({ from: START, to });
    return (await this.graph.invoke(input, runtimeConfig(runtime, options))) as StateType<SD>;
  }
}
