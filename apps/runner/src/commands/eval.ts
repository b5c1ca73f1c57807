import type { Io } from '../io';
import type { Setting } from '../corpus';
import { evaluate } from '../eval/evaluate';
import { parseWorkflowList } from '../workflows';
import { settingAssignments } from '../workflowSettings';

export interface EvalCommandOptions {
  workflows: string;
  dataset: string;
  /** Skip the first questions of the file. */
  offset?: number;
  limit?: number;
  concurrency: number;
  setting: Setting;
  model?: string;
  /** `offline` or `openai:<model>`; default: the model configuration's `judge` role. */
  judge?: string;
  out?: string;
  db?: string;
  cacheDir?: string;
  /** A corpus file searched instead of (open) or besides the dataset's own paragraphs. */
  corpus?: string;
  layout?: string;
  skipInvalid?: boolean;
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
    selected.map((s) => ({ id: s.entry.id, workflow: s.workflow, settings: s.settings, overrides: s.overrides })),
    rest,
  );
}
