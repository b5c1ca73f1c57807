import type { RunContext, SearchHit } from '@multihop/core';
import { par2WriterPrompt } from '../prompts';

/** Writer 𝒢 (§3.1): the step response r_t = 𝒢(q, C_t); the latest one is the final answer. */
export async function writeResponse(ctx: RunContext, question: string, context: SearchHit[]): Promise<{ answer: string; reasoning: string }> {
  const { output } = await ctx.model.call({ prompt: par2WriterPrompt, vars: { question, passages: context } });
  return output;
}
