import { RunAbortedError } from './errors';
import { ConcurrencyLimiter } from './model/limiter';
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

/**
 * A retriever that sends at most `concurrency` searches at once, the rest waiting in order: for a
 * store of your own that rate-limits or slows under load (a hosted vector database), since a
 * method's parallel branches (PAR²-RAG's five sub-queries, MAO-ARAG's parallel sub-questions) and
 * an evaluation's concurrent runs all search at the same moment. Wrap it once and give the result
 * to every run, so the bound holds across them. A run aborted while its search waits ends at once
 * (a `RunAbortedError`), without waiting for other runs' searches.
 */
export function limitSearches(retriever: RetrieverPort, concurrency: number): RetrieverPort {
  const limiter = new ConcurrencyLimiter(concurrency);
  return {
    search: (query, options) => limiter.run(() => retriever.search(query, options), options?.signal, (reason) => new RunAbortedError(reason)),
  };
}
