import {
  chartFromXState,
  defineWorkflow,
  MultihopError,
  type Chart,
  type Query,
  type RunContext,
  type RunOptions,
  type RunResult,
  type Workflow,
  type WorkflowOutput,
} from '@multihop/core';
import type { AnyStateMachine, ContextFrom, InputFrom } from 'xstate';
import { runMachine, type MachineImplementations, type MachineRunResult } from './runMachine';

export interface XStateWorkflowDefinition<TMachine extends AnyStateMachine> {
  id: string;
  title: string;
  paper: string;
  /** The machine, defined once with no runtime in it; each run provides its own (`implementations`). */
  machine: TMachine;
  /** Display labels per state key, for the chart. */
  labels?: Record<string, string>;
  /** The machine's input for a query (the query never carries gold). */
  input(query: Query): InputFrom<TMachine>;
  /** This run's implementations for `machine.provide()`, typically `{ actors: actors.bind({ ctx, … }) }`. */
  implementations?(ctx: RunContext): MachineImplementations<TMachine>;
  /** See MachineRunOptions.failedStates. */
  failedStates?: readonly string[];
  /** See MachineRunOptions.maxTransitions: a method whose settings allow long loops raises it with them. */
  maxTransitions?: number;
  /** See MachineRunOptions.pauseWhen. */
  pauseWhen?(state: string, context: ContextFrom<TMachine>): boolean;
  /**
   * The run's answer and data from the machine's end (or pause). A paused run is made partial
   * here, with stopReason `paused` and the persisted snapshot in `data.snapshot`.
   */
  output(result: MachineRunResult<TMachine>, ctx: RunContext): WorkflowOutput;
}

export interface XStateWorkflow extends Workflow {
  /** Continues a paused run (`data.snapshot` of its result, or that JSON re-read) in a new actor. */
  resume(query: Query, snapshot: unknown, options: RunOptions): Promise<RunResult>;
}

/**
 * A core Workflow whose body is an XState machine run by `runMachine`, with its chart read off
 * the same machine (`chartFromXState`), so what is drawn is what runs.
 */
export function defineXStateWorkflow<TMachine extends AnyStateMachine>(definition: XStateWorkflowDefinition<TMachine>): XStateWorkflow {
  const { id, title, paper, machine } = definition;
  let chart: Chart | undefined;
  const chartOf = (): Chart => (chart ??= chartFromXState(machine, { id, title, ...(definition.labels ? { labels: definition.labels } : {}) }));

  const workflowFrom = (snapshot: unknown): Workflow =>
    defineWorkflow({
      id,
      title,
      paper,
      chart: chartOf,
      async execute(query, ctx) {
        const result = await runMachine(machine, ctx, {
          input: definition.input(query),
          ...(definition.implementations ? { implementations: definition.implementations(ctx) } : {}),
          ...(snapshot !== undefined ? { snapshot } : {}),
          ...(definition.pauseWhen ? { pauseWhen: definition.pauseWhen } : {}),
          ...(definition.failedStates ? { failedStates: definition.failedStates } : {}),
          ...(definition.maxTransitions !== undefined ? { maxTransitions: definition.maxTransitions } : {}),
        });
        const output = definition.output(result, ctx);
        if (result.status !== 'paused') return output;
        return { ...output, stopReason: 'paused', data: { ...output.data, snapshot: result.snapshot } };
      },
    });

  const fresh = workflowFrom(undefined);
  return {
    ...fresh,
    resume: async (query, snapshot, options) => {
      checkResumable(id, snapshot, definition.input(query) as Record<string, unknown>);
      return workflowFrom(snapshot).run(query, options);
    },
  };
}

/**
 * A snapshot `resume` can continue: one there is (an undefined one, a mistyped
 * `result.data?.['snapshot']`, would start the run afresh and pay for every call again), paused on
 * this question: a text field of the machine's input (the question) that its context holds
 * otherwise means another question's run, whose answer would come back under this question's id.
 */
function checkResumable(workflow: string, snapshot: unknown, input: Record<string, unknown>): void {
  if (snapshot === undefined || snapshot === null || typeof snapshot !== 'object') {
    throw new MultihopError('CHECKPOINT', `${workflow}: resume needs the paused run's snapshot (its result's data.snapshot), got ${snapshot === undefined ? 'undefined' : JSON.stringify(snapshot)}`);
  }
  const context = (snapshot as { context?: Record<string, unknown> }).context ?? {};
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && typeof context[key] === 'string' && context[key] !== value) {
      throw new MultihopError('CHECKPOINT', `${workflow}: the snapshot was paused on another ${key} ("${String(context[key]).slice(0, 80)}"), not "${value.slice(0, 80)}": resume it with the query it was paused on`);
    }
  }
}
