import { goldAnswers, type Question, type RunResult } from '@multihop/core';
import { retrievalScores, scoreAnswer } from '@multihop/metrics';
import type { RowMetrics } from './ResultsLog';

/**
 * The per-question metrics: EM / F1 / accuracy with the official HotpotQA normalisation (max
 * over gold aliases); Recall@5, full recall@5 and NDCG@5 over the first five passages of the
 * run's evidence; All-Pass over all of it (PAR² A.2). A run that retrieved nothing scores 0 on
 * retrieval; a question without gold passage ids, or a workflow that never searches by design
 * (its manifest entry's `searches: false`: closed-book), has no retrieval scores (null).
 */
export function scoreRun(result: RunResult, question: Question, workflow: { searches?: boolean } = {}): RowMetrics {
  const answer = scoreAnswer(result.answer, goldAnswers(question));
  const hasGold = question.supportingIds.length > 0 && workflow.searches !== false;
  const at5 = hasGold ? retrievalScores(result.evidenceIds, question.supportingIds, 5) : undefined;
  const all = hasGold ? retrievalScores(result.evidenceIds, question.supportingIds, Math.max(1, result.evidenceIds.length)) : undefined;
  return {
    em: answer.em,
    f1: answer.f1,
    acc: answer.accuracy,
    recall_at_5: at5 ? at5.recall : null,
    full_recall_at_5: at5 ? at5.fullRecall : null,
    ndcg_at_5: at5 ? at5.ndcg : null,
    all_pass: all ? all.allPass : null,
  };
}
