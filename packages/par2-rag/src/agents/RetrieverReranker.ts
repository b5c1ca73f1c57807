import type { RunContext, SearchHit } from '@multihop/core';
import type { Reranker } from '@multihop/core';

/**
 * Retriever–reranker ℛ(q, D, k): a broad top-k candidate search, then the reranker keeps a
 * compact set (the paper: OpenSearch top-100, reranked to 5, appendix A.4).
 */
export async function retrieveAndRerank(
  ctx: RunContext,
  reranker: Reranker,
  query: string,
  options: { retrieveK: number; rerankK: number },
): Promise<SearchHit[]> {
  const candidates = await ctx.retriever.search(query, { k: options.retrieveK });
  const kept = await reranker.rerank(query, candidates, { k: options.rerankK, signal: ctx.signal });
  ctx.decide('rerank', { query, candidates: candidates.length, kept: kept.map((h) => h.id), reranker: reranker.id });
  return kept;
}

/**
 * Merges ranked lists into one deduplicated context, round-robin by rank (every sub-query's
 * best passage first, then every second-best, ...), so no single sub-query crowds out the others.
 */
export function mergeRoundRobin(lists: SearchHit[][]): SearchHit[] {
  const merged: SearchHit[] = [];
  const seen = new Set<string>();
  const depth = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < depth; rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (hit && !seen.has(hit.id)) {
        seen.add(hit.id);
        merged.push(hit);
      }
    }
  }
  return merged;
}
