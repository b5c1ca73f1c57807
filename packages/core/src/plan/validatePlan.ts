import { PlanError, type PlanProblem } from '../errors';
import { cyclicComponents, dependencyGraph, shortestCycle, type DependencyGraph } from './dependencyGraph';
import { findPlaceholders } from './findPlaceholders';
import type { DagStep } from './types';

/**
 * Every problem of a plan, in the order a reader meets them (an empty plan first, then step
 * by step, then cycles); empty when the plan is valid. Nothing is thrown, so a method can
 * score a malformed plan (MAO-ARAG's format penalty, OPERA's plan reward) instead of failing.
 *
 * - `empty`: the plan has no steps, or (with `step` set) a step's question is blank.
 * - `duplicate-step`: two steps share an id; references resolve to the first.
 * - `self-reference`: a step depends on itself or its question refers to its own answer.
 * - `unknown-step`: `dependsOn` names an id that no step has.
 * - `dangling-placeholder`: a placeholder can never be filled when its step runs, because it
 *   names a step that does not exist, or one the step does not depend on directly or through
 *   other steps. A step it reaches only transitively is accepted: that answer is known before
 *   the step runs, which is all substitution needs.
 * - `cycle`: steps that depend on each other in a loop; the message shows one loop.
 */
export function validatePlan(plan: { readonly steps: readonly DagStep[] }): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (plan.steps.length === 0) problems.push({ kind: 'empty', message: 'the plan has no steps' });
  const graph = dependencyGraph(plan.steps);
  plan.steps.forEach((step, at) => problems.push(...stepProblems(graph, step, at)));
  problems.push(...cycleProblems(graph));
  return problems;
}

/** Throws a PlanError listing every problem when the plan is not valid. */
export function assertValidPlan(plan: { readonly steps: readonly DagStep[] }): void {
  const problems = validatePlan(plan);
  if (problems.length > 0) throw planError(problems);
}

export function planError(problems: PlanProblem[]): PlanError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new PlanError(`invalid plan, ${count}:\n${problems.map((p) => `- ${p.message}`).join('\n')}`, problems);
}

/**
 * The problems that leave a plan's graph without a well-defined order (ambiguous ids,
 * dependencies that can never be met, loops). The graph functions refuse such plans and let
 * the rest through (an empty plan, a blank question, placeholder problems), since those do
 * not stop the steps from being ordered; `validatePlan` is where a plan is judged whole.
 */
export function orderingProblems(plan: { readonly steps: readonly DagStep[] }): PlanProblem[] {
  const orderable = new Set<PlanProblem['kind']>(['duplicate-step', 'unknown-step', 'cycle']);
  const dependsOnItself = new Set(plan.steps.filter((s) => s.dependsOn.includes(s.id)).map((s) => s.id));
  return validatePlan(plan).filter(
    (p) => orderable.has(p.kind) || (p.kind === 'self-reference' && p.step !== undefined && dependsOnItself.has(p.step)),
  );
}

function stepProblems<S extends DagStep>(graph: DependencyGraph<S>, step: S, at: number): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const name = `step ${step.id}`;
  const first = graph.positionOf.get(step.id);
  if (first !== undefined && first !== at) {
    problems.push({
      kind: 'duplicate-step',
      step: step.id,
      message: `${name} appears more than once (positions ${first + 1} and ${at + 1}); ids must be unique`,
    });
  }
  if (step.question !== undefined && step.question.trim() === '') {
    problems.push({ kind: 'empty', step: step.id, message: `${name} has an empty question` });
  }

  const placeholders = step.question === undefined ? [] : findPlaceholders(step.question);
  const selfPlaceholder = placeholders.find((p) => p.stepRef === step.id);
  if (step.dependsOn.includes(step.id) || selfPlaceholder) {
    problems.push({
      kind: 'self-reference',
      step: step.id,
      message: selfPlaceholder
        ? `${name} refers to its own answer through "${selfPlaceholder.raw}"`
        : `${name} depends on itself`,
    });
  }

  for (const dep of new Set(step.dependsOn)) {
    if (graph.positionOf.has(dep)) continue;
    problems.push({
      kind: 'unknown-step',
      step: step.id,
      message: `${name} depends on step ${dep}, which is not in the plan (${knownSteps(graph)})`,
    });
  }

  const reachable = ancestors(graph, at);
  for (const placeholder of placeholders) {
    if (placeholder.stepRef === step.id) continue;
    const target = graph.positionOf.get(placeholder.stepRef);
    if (target === undefined) {
      problems.push({
        kind: 'dangling-placeholder',
        step: step.id,
        message: `${name} uses "${placeholder.raw}", but there is no step ${placeholder.stepRef} (${knownSteps(graph)})`,
      });
    } else if (!reachable.has(target)) {
      problems.push({
        kind: 'dangling-placeholder',
        step: step.id,
        message: `${name} uses "${placeholder.raw}" but does not depend on step ${placeholder.stepRef}, so its answer may not exist yet; add "${placeholder.stepRef}" to dependsOn`,
      });
    }
  }
  return problems;
}

function cycleProblems<S extends DagStep>(graph: DependencyGraph<S>): PlanProblem[] {
  const id = (at: number) => graph.steps[at]!.id;
  return cyclicComponents(graph.edges).map((component) => {
    const loop = shortestCycle(component, graph.edges).map(id);
    const members = component.map(id);
    return {
      kind: 'cycle',
      step: members[0]!,
      message:
        `steps ${members.join(', ')} depend on each other in a cycle: ` +
        `${[...loop, loop[0]].join(' → ')} (each depends on the next)`,
    };
  });
}

/** Positions of every step `at` depends on, directly or through other steps. */
function ancestors<S extends DagStep>(graph: DependencyGraph<S>, at: number): Set<number> {
  const seen = new Set<number>();
  const todo = [...(graph.edges[at] ?? [])];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(graph.edges[next] ?? []));
  }
  return seen;
}

function knownSteps<S extends DagStep>(graph: DependencyGraph<S>): string {
  const ids = [...graph.positionOf.keys()];
  return ids.length === 0 ? 'it has no steps' : `steps: ${ids.join(', ')}`;
}
