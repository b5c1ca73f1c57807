import type { LangGraphDrawable } from '@multihop/core';
import { chartFromLangGraph, defineWorkflow, type LangGraphChartOptions, type Workflow } from '@multihop/core';
import type { BaselineStateType } from './state';

/** The part of a compiled LangGraph graph a workflow needs. */
interface CompiledBaseline {
  invoke(input: Partial<BaselineStateType>, config: Record<string, unknown>): Promise<BaselineStateType>;
  getGraph(): LangGraphDrawable;
}

/**
 * Wraps a compiled baseline graph as a Workflow: the chart comes from the graph, the run
 * passes the traced context to the nodes through `configurable`, and a loop cut by its step
 * bound returns its answer labelled with the reason.
 */
export function graphWorkflow(spec: {
  id: string;
  title: string;
  paper: string;
  graph: CompiledBaseline;
  chart?: Omit<LangGraphChartOptions, 'id' | 'title'>;
  recursionLimit?: number;
}): Workflow {
  return defineWorkflow({
    id: spec.id,
    title: spec.title,
    paper: spec.paper,
    chart: () => chartFromLangGraph(spec.graph.getGraph(), { id: spec.id, title: spec.title, ...spec.chart }),
    async execute(query, ctx) {
      const final = await spec.graph.invoke(
        { question: query.text, query: query.text },
        { configurable: { ctx }, recursionLimit: spec.recursionLimit ?? 50, signal: ctx.signal },
      );
      return {
        answer: final.finalAnswer ?? '',
        ...(final.stopReason ? { stopReason: final.stopReason } : {}),
        data: {
          ...(final.reasoning ? { reasoning: final.reasoning } : {}),
          ...(final.thoughts.length ? { thoughts: final.thoughts } : {}),
          ...(final.steps.length ? { steps: final.steps.map(({ observation: _o, ...s }) => s) } : {}),
        },
      };
    },
  });
}
