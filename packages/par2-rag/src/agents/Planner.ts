import type { RunContext } from '@multihop/core';
import { par2PlannerPrompt } from '../prompts';

export interface SubQuery {
  reason: string;
  query: string;
}

/**
 * Planner 𝒫(q) (§3.1, Stage 1): m complementary sub-queries with reasons. Duplicate queries are
 * dropped and the list is cut to m, since each sub-query costs one retrieval.
 */
export async function planSubQueries(ctx: RunContext, question: string, m: number): Promise<SubQuery[]> {
  const { output } = await ctx.model.call({ prompt: par2PlannerPrompt, vars: { question, count: m } });
  const seen = new Set<string>();
  const subQueries = output.searches.filter((s) => {
    const key = s.query.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return subQueries.slice(0, m);
}
