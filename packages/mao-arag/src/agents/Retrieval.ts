import type { RunContext, SearchHit } from '@multihop/core';

/** R: the top-k passages for the turn's query (the rewritten one after QR), added to the run's evidence. */
export async function retrieve(ctx: RunContext, query: string, k: number, turn: number): Promise<SearchHit[]> {
  const hits = await ctx.retriever.search(query, { k });
  ctx.addEvidence(hits, { query, hop: turn });
  return hits;
}

/**
 * R for several sub-questions at once (QDP's parallel slots): every search runs together, and
 * their passages join the run's evidence in the slots' order once all have returned, so the
 * evidence order (what Recall@k and NDCG@k read) does not depend on which search returned first.
 */
export async function retrieveAll(ctx: RunContext, searches: ReadonlyArray<{ query: string; turn: number }>, k: number): Promise<SearchHit[][]> {
  const found = await Promise.all(searches.map((s) => ctx.retriever.search(s.query, { k })));
  searches.forEach((s, i) => ctx.addEvidence(found[i]!, { query: s.query, hop: s.turn }));
  return found;
}
