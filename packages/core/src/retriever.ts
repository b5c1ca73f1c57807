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
