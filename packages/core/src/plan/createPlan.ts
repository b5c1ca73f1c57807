import { findPlaceholders } from './findPlaceholders';
import type { Plan, PlanStep } from './types';

type StepRef = string | number;

/**
 * One sub-goal as planners emit it: a bare string, or an object with optional id and
 * dependencies. `step` is accepted as the id because HERA's orchestrator numbers its
 * topology `{"step": 1, "depends_on": []}`; `depends_on` because planners trained on
 * JSON emit snake_case.
 */
export type PlanStepInput =
  | string
  | {
      id?: StepRef;
      step?: StepRef;
      question: string;
      dependsOn?: readonly StepRef[];
      depends_on?: readonly StepRef[];
    };

/**
 * Builds a plan from a sub-goal list. A step without an id gets its 1-based position, the
 * number that `[entity from step N]` and `#N` use. Don't pass ids that are not step numbers
 * when the questions use numbered placeholders (MuSiQue's `question_decomposition` ids are
 * paragraph ids while its `#1` means the first sub-question): placeholders name ids.
 *
 * Dependencies are the explicit ones followed by those the placeholders imply, without
 * repeats. A placeholder naming a step that is not in the plan adds no dependency: it stays
 * a dangling placeholder for `validatePlan` to report, once, as such. Nothing is validated
 * here, so a planner's malformed output can still be built, inspected and reported.
 */
export function createPlan(input: readonly PlanStepInput[] | { readonly steps: readonly PlanStepInput[] }): Plan {
  const items: readonly PlanStepInput[] = isStepList(input) ? input : input.steps;
  const drafts = items.map((item, index) => {
    const position = String(index + 1);
    if (typeof item === 'string') return { id: position, question: item, explicit: [] as string[] };
    const id = item.id ?? item.step;
    const explicit = [...(item.dependsOn ?? []), ...(item.depends_on ?? [])].map(String);
    return { id: id === undefined ? position : String(id), question: item.question, explicit };
  });
  const ids = new Set(drafts.map((d) => d.id));
  const steps: PlanStep[] = drafts.map(({ id, question, explicit }) => {
    const implied = findPlaceholders(question)
      .map((p) => p.stepRef)
      .filter((ref) => ids.has(ref));
    return { id, question, dependsOn: [...new Set([...explicit, ...implied])] };
  });
  return { steps };
}

function isStepList(
  input: readonly PlanStepInput[] | { readonly steps: readonly PlanStepInput[] },
): input is readonly PlanStepInput[] {
  return Array.isArray(input);
}
