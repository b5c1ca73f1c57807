import type { Passage } from './types';

/** One ranked search hit. */
export interface SearchHit extends Passage {
  /** 1-based rank in this result list. */
  rank: number;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

export interface SearchOptions {
  /** Number of hits (default 5). */
  k?: number;
  /** Restrict the search to one question's own passages (the closed / distractor setting). */
  questionId?: string;
  /** Search sentence chunks instead of whole passages (OPERA retrieves sentences). */
  level?: 'passage' | 'sentence';
  signal?: AbortSignal;
}

/** What a workflow needs of a retriever. @multihop/retriever implements it on LanceDB. */
export interface RetrieverPort {
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

/**
 * Reorders a retriever's candidates; returns at most `k` hits, re-ranked 1..n. A port, like
 * RetrieverPort: @multihop/retriever has a lexical and an LLM reranker, methods take any.
 */
export interface Reranker {
  readonly id: string;
  rerank(query: string, hits: SearchHit[], options?: { k?: number; signal?: AbortSignal }): Promise<SearchHit[]>;
}

/** Turns texts into vectors for vector and hybrid search. */
export interface Embedder {
  /** Stable id recorded in the corpus manifest; a corpus embedded by one embedder cannot be searched with another. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
