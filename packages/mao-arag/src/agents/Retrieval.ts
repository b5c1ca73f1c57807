import type { RunContext, SearchHit } from '@multihop/core';

/** R: the top-k passages for the turn's query (the rewritten one after QR), added to the run's evidence. */
export async function retrieve(ctx: RunContext, query: string, k: number, turn: number): Promise<SearchHit[]> {
  const hits = await ctx.retriever.search(query, { k });
  ctx.addEvidence(hits, { query, hop: turn });
  return hits;
}
