import { findPlaceholders } from './findPlaceholders';
import { lookupAnswer, type DagStep, type ResolvedAnswers } from './types';

/**
 * The unanswered steps that can run now: every step they depend on, and every step their
 * placeholders name, has an answer. Plan order. Run them all at once, record their answers,
 * ask again; on a valid plan this walks `topologicalLayers` one layer at a time.
 * Requiring the placeholders too means a step never reaches retrieval with an unfilled
 * `[entity from step N]` even in a plan that skipped validation; such a step just never
 * becomes ready.
 */
export function readySteps<S extends DagStep>(plan: { readonly steps: readonly S[] }, answers: ResolvedAnswers): S[] {
  const answered = (id: string) => lookupAnswer(answers, id) !== undefined;
  return plan.steps.filter((step) => {
    if (answered(step.id)) return false;
    const needs = [...step.dependsOn, ...findPlaceholders(step.question ?? '').map((p) => p.stepRef)];
    return needs.every(answered);
  });
}
