import { GraphRecursionError, type StateDefinition, type StateType, type UpdateType } from '@langchain/langgraph';
import { defineWorkflow, MultihopError, RunAbortedError, type Chart, type Query, type RunContext, type Workflow, type WorkflowOutput } from '@multihop/core';
import type { CompiledWorkflowGraph } from './CompiledWorkflowGraph';

interface GraphWorkflowBase<SD extends StateDefinition, Extras extends object> {
  id: string;
  title: string;
  paper: string;
  graph: CompiledWorkflowGraph<SD, Extras>;
  /** The graph's input for a query (the query never carries gold). */
  input(query: Query, ctx: RunContext): UpdateType<SD>;
  /** The run's answer and data from the graph's final state. */
  output(state: StateType<SD>, ctx: RunContext): WorkflowOutput;
  /**
   * LangGraph's superstep limit. Loops end on a budget kept in state; this only stops a bug
   * from looping forever (LangGraph's default is 25).
   */
  recursionLimit?: number;
}

/** The method's additions to the runtime beside `ctx`, built once per run; required when the graph declares any. */
type RuntimeField<Extras extends object> = object extends Extras ? { runtime?(ctx: RunContext): Extras } : { runtime(ctx: RunContext): Extras };

export type GraphWorkflowDefinition<SD extends StateDefinition, Extras extends object = object> = GraphWorkflowBase<SD, Extras> & RuntimeField<Extras>;

/**
 * A core Workflow whose body is one run of a compiled graph: the input is built from the query,
 * the run's runtime (ctx plus the method's extras) travels in `configurable`, the caller's abort
 * signal reaches LangGraph, and the chart is read off the same compiled graph.
 */
export function defineGraphWorkflow<SD extends StateDefinition, Extras extends object = object>(definition: GraphWorkflowDefinition<SD, Extras>): Workflow {
  const { id, title, paper, graph } = definition;
  let chart: Chart | undefined;
  const extras = (definition as { runtime?: (ctx: RunContext) => Extras }).runtime;
  return defineWorkflow({
    id,
    title,
    paper,
    chart: () => (chart ??= graph.chart({ id, title })),
    async execute(query, ctx) {
      const runtime = { ...(extras ? extras(ctx) : ({} as Extras)), ctx };
      let final;
      try {
        final = await graph.invoke(definition.input(query, ctx), runtime, {
          signal: ctx.signal,
          ...(definition.recursionLimit !== undefined ? { recursionLimit: definition.recursionLimit } : {}),
        });
      } catch (error) {
        // LangGraph rejects with the signal's bare reason; core labels a run `aborted` only for its own error.
        // (The rejection stays its cause, so core finds the node it left through.)
        if (ctx.signal.aborted && !(error instanceof MultihopError)) throw new RunAbortedError(ctx.signal.reason, { cause: error });
        // LangGraph's superstep limit: a bug's loop, not the method's own budget (which ends a run partial).
        if (error instanceof GraphRecursionError) {
          const limit = /limit of (\d+)/.exec(error.message)?.[1] ?? String(definition.recursionLimit ?? 'its');
          throw new MultihopError(
            'STEP_LIMIT',
            `graph "${id}" took ${limit} supersteps without reaching its end (LangGraph's recursion limit): a loop needs its own bound, a setting kept in the graph's state that a router checks (or raise the workflow's recursionLimit)`,
            { cause: error },
          );
        }
        throw error;
      }
      return definition.output(final, ctx);
    },
  });
}
