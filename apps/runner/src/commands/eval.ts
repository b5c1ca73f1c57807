import type { Io } from '../io';
import { evaluate, type EvaluationOptions } from '../eval/evaluate';
import { evaluatedWorkflow } from '../eval/runPair';
import { parseWorkflowList } from '../workflows';
import { settingAssignments } from '../workflowSettings';

export interface EvalCommandOptions extends EvaluationOptions {
  /** `a,b,c`: workflow ids. */
  workflows: string;
  /** `<workflow or method>.<setting>=<value>`, validated by the workflow's settings schema. */
  set?: string[];
}

/** `multihop eval`: every workflow on the same questions, judged and summarised (see evaluate). */
export async function evalCommand(io: Io, options: EvalCommandOptions): Promise<number> {
  const { workflows: list, set, ...rest } = options;
  const selected = parseWorkflowList(list, settingAssignments(set));
  return evaluate(
    io,
    'eval',
    selected.map((s) => evaluatedWorkflow(s.entry.id, s)),
    rest,
  );
}
