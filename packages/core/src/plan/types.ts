/**
 * One sub-goal of a plan. `question` may carry placeholders for earlier answers
 * (`[entity from step 1]`, `#1`); `dependsOn` lists the ids of the steps whose answers it
 * needs, so an executor can run independent steps in parallel (HERA, PAR²'s planner fan-out).
 */
export interface PlanStep {
  id: string;
  question: string;
  dependsOn: string[];
}

/** A sub-goal list (OPERA's Plan Agent, MAO-ARAG's decomposition) or a dependency DAG. */
export interface Plan {
  steps: PlanStep[];
}

/**
 * The part of a step the graph functions look at. HERA's agent topologies (agents with
 * `depends_on`, no question) have this shape too, so they can be ordered and layered with
 * the same functions.
 */
export interface DagStep {
  id: string;
  dependsOn: readonly string[];
  question?: string;
}

/**
 * Answers resolved so far, keyed by step id (OPERA's trajectory memory). Any entry counts as
 * resolved, even an empty string: deciding that an empty answer is a failure is the
 * method's call, not the plan's.
 */
export type ResolvedAnswers = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

export function lookupAnswer(answers: ResolvedAnswers, stepId: string): string | undefined {
  if (isMap(answers)) return answers.get(stepId);
  // hasOwn, so a step id like "constructor" never picks up Object.prototype members.
  return Object.hasOwn(answers, stepId) ? answers[stepId] : undefined;
}

function isMap(answers: ResolvedAnswers): answers is ReadonlyMap<string, string> {
  return answers instanceof Map;
}
