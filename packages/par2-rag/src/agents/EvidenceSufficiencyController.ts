import type { RunContext, SearchHit } from '@multihop/core';
import { par2EscPrompt } from '../prompts';

export interface EscVerdict {
  decision: 'CONTINUE' | 'STOP';
  query: string;
  rationale: string;
}

/**
 * Evidence Sufficiency Controller ℰ(q, r_t, C_t) → (action, q*_{t+1}, m_t) (eq. 1): decides
 * whether the evidence supports committing to r_t, or which fact to retrieve next. The paper
 * gives it its own model (o4-mini), hence its own role.
 */
export async function evidenceSufficiency(
  ctx: RunContext,
  question: string,
  response: string,
  context: SearchHit[],
  previousQueries: readonly string[] = [],
  reasoning = '',
): Promise<EscVerdict> {
  // The searches already run, so that a follow-up asks for something new; the Writer's reasoning
  // with its answer, since r_t is the whole step response (eq. 1), not the short answer alone.
  const { output } = await ctx.model.call({ prompt: par2EscPrompt, vars: { question, response, reasoning, passages: context, previousQueries: [...previousQueries] } });
  return output;
}
