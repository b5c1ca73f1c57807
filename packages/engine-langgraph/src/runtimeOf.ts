import { MultihopError, type RunContext } from '@multihop/core';

/**
 * The one `configurable` key under which every multihop graph receives its per-run runtime.
 * One spelling for every method, so a node can never look for `ctx` where another graph put `par2`.
 */
export const RUNTIME_KEY = 'multihop';

/** What every node and router receives at run time: the run's traced context, plus the method's own extras. */
export type GraphRuntime<Extras extends object = object> = { readonly ctx: RunContext } & Extras;

/** The part of a LangGraph RunnableConfig this package reads. */
export interface ConfigWithRuntime {
  configurable?: Record<string, unknown>;
}

/**
 * The runtime of the run a node or router belongs to. Throws a MultihopError with code
 * `LANGGRAPH_RUNTIME` when the graph was invoked directly (`graph.invoke(input)`) instead of
 * through `CompiledWorkflowGraph.invoke` or a graph workflow, which pass it.
 */
export function runtimeOf<Extras extends object = object>(config: ConfigWithRuntime | undefined): GraphRuntime<Extras> {
  const runtime = config?.configurable?.[RUNTIME_KEY] as Partial<GraphRuntime> | undefined;
  if (typeof runtime !== 'object' || runtime === null || typeof runtime.ctx !== 'object' || runtime.ctx === null) {
    throw new MultihopError(
      'LANGGRAPH_RUNTIME',
      `graph invoked without its run runtime: pass { configurable: { ${RUNTIME_KEY}: { ctx, ... } } }, as CompiledWorkflowGraph.invoke and defineGraphWorkflow do`,
    );
  }
  return runtime as GraphRuntime<Extras>;
}

/** The RunnableConfig that carries `runtime` to every node and router of one run. */
export function runtimeConfig<Extras extends object>(runtime: GraphRuntime<Extras>, options: { recursionLimit?: number; signal?: AbortSignal } = {}) {
  return {
    configurable: { [RUNTIME_KEY]: runtime },
    ...(options.recursionLimit !== undefined ? { recursionLimit: options.recursionLimit } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
