import { START, type StateDefinition, type StateType, type UpdateType } from '@langchain/langgraph';
import { chartFromLangGraph, deltasOf, MultihopError, type Chart, type LangGraphDrawable } from '@multihop/core';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { RunDeltaSaver } from './RunDeltaSaver';
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
  /** Nodes that run another whole workflow, with its id. */
  workflows: Record<string, string>;
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
  /** The same graph compiled with each checkpointer it has run with (durable runs). */
  private readonly withSaver = new WeakMap<object, LangGraphCompiled>();

  constructor(
    /** The compiled LangGraph graph (for `getGraph()`, drawing, streaming). */
    readonly graph: LangGraphCompiled,
    readonly shape: GraphShape,
    /** Compiles the same builder with a checkpointer (absent for a graph built elsewhere: it cannot run durably). */
    private readonly compileWith?: (checkpointer: BaseCheckpointSaver) => LangGraphCompiled,
  ) {}

  /** The chart read off the compiled graph, with guards, choices and fan-out from what was registered. */
  chart(meta: { id: string; title?: string }): Chart {
    const { routers, choices, fanOut, parallel, labels, workflows } = this.shape;
    return chartFromLangGraph(this.graph.getGraph(), { ...meta, routers, choices, fanOut, parallel, labels, workflows });
  }

  /**
   * Runs the graph once with `runtime` in `configurable` (see RUNTIME_KEY). The edges out of
   * START are reported here, since LangGraph's own start node runs none of our code.
   */
  async invoke(input: UpdateType<SD>, runtime: GraphRuntime<Extras>, options: InvokeOptions = {}): Promise<StateType<SD>> {
    // A run aborted (or out of budget) before it starts takes no edge, as the XState adapter's.
    runtime.ctx.budget.check();
    const durable = runtime.ctx.durable;
    if (durable) return this.invokeDurably(input, runtime, options);
    for (const to of this.shape.startTargets) runtime.ctx.transition({ from: START, to });
    return (await this.graph.invoke(input, runtimeConfig(runtime, options))) as StateType<SD>;
  }

  /**
   * A durable run (ctx.durable): the graph runs compiled with the thread's checkpointer, with
   * `durability: "sync"` so each superstep's checkpoint is written before the next step starts,
   * and each checkpoint carries core's share of the run (RunDeltaSaver). A thread with checkpoints
   * resumes from its latest: core gets back the trace, evidence and usage recorded up to it, and
   * LangGraph continues with the steps still to run (`invoke(null)`); a finished thread returns
   * its final state with nothing run again.
   */
  private async invokeDurably(input: UpdateType<SD>, runtime: GraphRuntime<Extras>, options: InvokeOptions): Promise<StateType<SD>> {
    const durable = runtime.ctx.durable!;
    if (!this.compileWith) throw new MultihopError('LANGGRAPH_GRAPH', 'this graph was not built with workflowGraph(), so it cannot run with a checkpointer');
    const saver = RunDeltaSaver.over(durable.checkpointer as BaseCheckpointSaver);
    let graph = this.withSaver.get(saver);
    if (!graph) this.withSaver.set(saver, (graph = this.compileWith(saver)));
    const thread = { configurable: { thread_id: durable.threadId, checkpoint_ns: '' } };
    const latest = await saver.getTuple(thread);
    const release = saver.attach(durable.threadId, durable);
    try {
      if (latest) durable.restore(await deltasOf(saver, durable.threadId));
      else for (const to of this.shape.startTargets) runtime.ctx.transition({ from: START, to });
      const base = runtimeConfig(runtime, options);
      const config = { ...base, configurable: { ...base.configurable, thread_id: durable.threadId }, durability: 'sync' };
      return (await graph.invoke(latest ? null : input, config)) as StateType<SD>;
    } finally {
      release();
    }
  }
}
