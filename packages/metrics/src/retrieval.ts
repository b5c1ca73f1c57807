import { InputError } from '@multihop/core';

/**
 * Retrieval metrics over passage ids with binary relevance: a retrieved id is relevant when it
 * is one of the question's gold supporting passages (PAR² appendix A.2).
 */
export interface RetrievalScores {
  k: number;
  /** 1 when any gold passage is in the top k (PAR²'s Recall@k). */
  recall: number;
  /** The fraction of the gold passages found in the top k. */
  fullRecall: number;
  ndcg: number;
  /** 1 only when every gold passage is in the top k (PAR²'s All-Pass). */
  allPass: number;
}

/**
 * The ranking with repeated ids removed, first occurrence kept. PAR² scores deduplicated chunk
 * ids (§4.1); without this a passage retrieved by three sub-queries would fill three ranks and
 * earn its gain three times.
 */
export function dedupeRanking(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

function checkInputs(gold: readonly string[], k: number): Set<string> {
  if (!Number.isInteger(k) || k < 1) throw new InputError(`k must be a positive integer, got ${k}`, { field: 'k' });
  const goldSet = new Set(gold);
  // With no gold passage every one of these metrics is 0/0: better to say so than to
  // quietly average a made-up 0 or 1 into a benchmark.
  if (goldSet.size === 0) throw new InputError('retrieval metrics need at least one gold passage id', { field: 'gold' });
  return goldSet;
}

function relevantFlags(ranked: readonly string[], goldSet: ReadonlySet<string>, k: number): boolean[] {
  return dedupeRanking(ranked)
    .slice(0, k)
    .map((id) => goldSet.has(id));
}

/** Recall@k as PAR² defines it (eq. 5): 1 if any gold passage is in the top k, else 0. */
export function recallAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return retrievalScores(ranked, gold, k).recall;
}

/** The fraction of distinct gold passages found in the top k. */
export function fullRecallAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return retrievalScores(ranked, gold, k).fullRecall;
}

/**
 * NDCG@k (PAR² eqs. 3–4): gain 2^rel − 1 with binary rel, discount log2(i + 1) for rank i
 * (1-based); the ideal ranking puts min(|gold|, k) relevant passages first.
 */
export function ndcgAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return retrievalScores(ranked, gold, k).ndcg;
}

/** All-Pass@k: 1 only when every gold passage is in the top k. */
export function allPassAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return retrievalScores(ranked, gold, k).allPass;
}

/** All retrieval metrics of one ranking at one cut-off. */
export function retrievalScores(ranked: readonly string[], gold: readonly string[], k: number): RetrievalScores {
  const goldSet = checkInputs(gold, k);
  const flags = relevantFlags(ranked, goldSet, k);
  const found = flags.filter(Boolean).length;
  const gain = (rel: number): number => 2 ** rel - 1;
  const discount = (rank: number): number => Math.log2(rank + 1);
  const dcg = flags.reduce((sum, rel, i) => sum + gain(rel ? 1 : 0) / discount(i + 1), 0);
  let idcg = 0;
  for (let rank = 1; rank <= Math.min(goldSet.size, k); rank += 1) idcg += gain(1) / discount(rank);
  return {
    k,
    recall: found > 0 ? 1 : 0,
    fullRecall: found / goldSet.size,
    ndcg: dcg / idcg,
    allPass: found === goldSet.size ? 1 : 0,
  };
}
