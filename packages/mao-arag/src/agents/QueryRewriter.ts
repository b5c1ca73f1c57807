import type { RunContext } from '@multihop/core';
import { maoQueryRewritePrompt } from '../prompts';

/** QR: the question as one concise search query; Retrieval then searches it instead of the question. */
export async function rewriteQuery(ctx: RunContext, question: string): Promise<string> {
  const { output } = await ctx.model.call({ prompt: maoQueryRewritePrompt, vars: { question } });
  return output.query.trim() || question;
}
