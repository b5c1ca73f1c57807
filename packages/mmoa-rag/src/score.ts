import { goldAnswers, type Question, type RunResult } from '@multihop/core';
import { scoreAnswer } from '@multihop/metrics';
import type { AgentTurn } from './machine';

/**
 * MMOA-RAG's own measures of a run, for `multihop eval`: the answer's EM and F1 under the
 * authors' normalisation (`mmoa`: the reply's text after "Answer:", punctuation as spaces; the
 * paper reports F1), each agent's penalty rate (1 when its check failed) for the agents the
 * workflow runs, and how many sub-questions and documents it used.
 */
export function evaluationScore(result: RunResult, question: Question): Record<string, number> {
  const turns = (result.data?.['turns'] as AgentTurn[] | undefined) ?? [];
  const reply = (result.data?.['reply'] as string | undefined) ?? result.answer;
  const answer = scoreAnswer(reply, goldAnswers(question), { normalization: 'mmoa' });
  const out: Record<string, number> = { mmoa_em: answer.em, mmoa_f1: answer.f1 };
  const penalised = (role: string) => turns.find((t) => t.role === role);
  const qr = penalised('mmoa-rag-query-rewriter');
  if (qr) {
    out['qr_penalty'] = qr.penalty < 0 ? 1 : 0;
    out['sub_questions'] = ((result.data?.['subQuestions'] as string[] | undefined) ?? []).length;
  }
  const s = penalised('mmoa-rag-selector');
  if (s) {
    out['s_penalty'] = s.penalty < 0 ? 1 : 0;
    out['selected'] = ((result.data?.['selection'] as { selected?: number[] } | undefined)?.selected ?? []).length;
  }
  const g = penalised('mmoa-rag-generator');
  if (g) out['g_penalty'] = g.penalty < 0 ? 1 : 0;
  return out;
}
