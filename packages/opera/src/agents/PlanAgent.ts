import { createPlan, validatePlan, type ModelPort, type Plan } from '@multihop/core';
import { operaPlanPrompt, operaPlanRepairPrompt } from '../prompts';

export interface PlanDraft {
  plan: Plan;
  /** Validation problems (core's `validatePlan`); empty for a valid plan. */
  problems: string[];
  /** The Plan Agent's output as parsed, for the trace and the plan reward. */
  raw: unknown;
}

/** Turns the Plan Agent's sub-goal list into a core Plan and validates it. */
export function draftFromOutput(output: { subGoals: Array<{ id: number; question: string; dependsOn: number[] }> }): PlanDraft {
  const plan = createPlan(output.subGoals.map((s) => ({ id: s.id, question: s.question, dependsOn: s.dependsOn })));
  return { plan, problems: validatePlan(plan).map((p) => p.message), raw: output };
}

/**
 * Plan Agent (GPM, opera.md "Mechanism 1"): sub-goals whose placeholders (`[entity from step N]`)
 * make the dependencies explicit. With `repair`, the rejected plan and its problems go back to
 * the agent for its one repair round.
 */
export async function planSubGoals(
  model: ModelPort,
  question: string,
  repair?: { previous: unknown; problems: string[] },
  extraVars: Record<string, unknown> = {},
): Promise<PlanDraft> {
  const { output } = repair
    ? await model.call({ prompt: operaPlanRepairPrompt, vars: { question, plan: repair.previous, problems: repair.problems, ...extraVars } })
    : await model.call({ prompt: operaPlanPrompt, vars: { question, ...extraVars } });
  return draftFromOutput(output);
}
