import type { RunContext } from '@multihop/core';
import { par2QueryFormulatorPrompt } from '../prompts';

/** Query Formulator 𝒬 (§3.1): turns the controller's request into one focused follow-up search. */
export async function formulateQuery(
  ctx: RunContext,
  input: { question: string; response: string; reasoning?: string; rationale: string; suggestion: string; previousQueries: string[] },
): Promise<string> {
  const { output } = await ctx.model.call({ prompt: par2QueryFormulatorPrompt, vars: { ...input, reasoning: input.reasoning ?? '' } });
  return output.query.trim();
}
