import { Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { runtimeOf, type GraphRuntime } from './runtimeOf';

export type NodeBody<State, Update, Extras extends object> = (state: State, runtime: GraphRuntime<Extras>) => Promise<Update> | Update;

/**
 * One registered node as LangGraph runs it: the body runs inside `ctx.node(name, …)` (enter and
 * exit events, model and retriever calls traced under the node), then the node's static edges
 * are reported as taken.
 *
 * A Runnable of our own rather than a function handed to `addNode`: LangGraph wraps a function
 * in a RunnableCallable that merges configs and enters LangChain's AsyncLocalStorage context
 * with a fresh LangSmith RunTree on every call, even with tracing off, which was the largest
 * single cost of a run (tools/bench/README.md). The body gets its runtime explicitly, so it
 * needs neither; LangChain callbacks inside a node therefore do not nest under the node.
 */
export class TracedNode<State, Update, Extras extends object> extends Runnable<State, Update> {
  lc_namespace = ['multihop', 'engine-langgraph'];

  constructor(
    readonly nodeName: string,
    private readonly body: NodeBody<State, Update, Extras>,
    private readonly enterData: ((state: State) => Record<string, unknown>) | undefined,
    /** The node's static edge targets, filled in when the graph is compiled. */
    private readonly targets: readonly string[],
  ) {
    super();
    this.name = nodeName;
  }

  override async invoke(state: State, config?: RunnableConfig): Promise<Update> {
    const runtime = runtimeOf<Extras>(config);
    const { ctx } = runtime;
    const update = await ctx.node(this.nodeName, async () => this.body(state, runtime), this.enterData?.(state));
    for (const to of this.targets) ctx.transition({ from: this.nodeName, to });
    return update;
  }
}
