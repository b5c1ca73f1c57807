import type { RunContext, SearchHit } from '@multihop/core';

/** R: the top-k passages for the turn's query (the rewritten one after QR), added to the run's evidence. */
export async function retrieve(ctx: RunContext, query: string, k: number, turn: number): Promise<SearchHit[]> {
  const [hits] = await retrieveAll(ctx, [{ query, turn }], k);
  return hits!;
}

/**
 * R for several sub-questions at once (QDP's parallel slots): every search runs together, and
 * their passages join the run's evidence in the slots' order once all have settled, so the
 * evidence order (what Recall@k and NDCG@k read) does not depend on which search returned first.
 * A search that fails (a budget stop) fails the call, after the others' passages are added.
 */
export async function retrieveAll(ctx: RunContext, searches: ReadonlyArray<{ query: string; turn: number }>, k: number): Promise<SearchHit[][]> {
  // One retrieval round (QDP's parallel slots together) is a hop of the run's budget (core's maxHops).
  ctx.budget.chargeHop();
  const settled = await Promise.allSettled(searches.map((s) => ctx.retriever.search(s.query, { k })));
  settled.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') ctx.addEvidence(outcome.value, { query: searches[i]!.query, hop: searches[i]!.turn });
  });
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<SearchHit[]>).value);
}
