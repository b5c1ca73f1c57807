import type { SearchHit } from '@multihop/core';

/** Reorders a retriever's candidates; returns at most `k` hits, re-ranked 1..n. */
export interface Reranker {
  readonly id: string;
  rerank(query: string, hits: SearchHit[], options?: { k?: number; signal?: AbortSignal }): Promise<SearchHit[]>;
}
