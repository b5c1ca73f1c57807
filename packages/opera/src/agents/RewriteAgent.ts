import type { ModelPort } from '@multihop/core';
import { operaRewritePrompt } from '../prompts';

export interface RewriteOutput {
  query: string;
  strategy: string;
  keywords: string[];
}

export interface RewriteInput {
  subGoal: string;
  query: string;
  analysis: string;
  previousQueries: string[];
}

export function rewriteVars(input: RewriteInput): Record<string, unknown> {
  return { subGoal: input.subGoal, query: input.query, analysis: input.analysis, previousQueries: input.previousQueries };
}

/**
 * Rewrite Agent (REM, opera.md "Mechanism 3"): a refined query from the failure analysis,
 * with its strategy and keywords. The paper serves it with a smaller (3B) model, hence its own role.
 */
export async function rewriteQuery(model: ModelPort, input: RewriteInput, extraVars: Record<string, unknown> = {}): Promise<RewriteOutput> {
  const { output } = await model.call({ prompt: operaRewritePrompt, vars: { ...rewriteVars(input), ...extraVars } });
  return { query: output.query.trim(), strategy: output.strategy, keywords: output.keywords };
}
