import type { Question } from '@multihop/core';
import { sentenceId } from './passageId';

/** A question's sentence-level gold as the sentence-chunk ids the retriever returns at `level: 'sentence'`. */
export function goldSentenceIds(question: Pick<Question, 'supportingSentences'>): string[] {
  return (question.supportingSentences ?? []).map((s) => sentenceId(s.passageId, s.sentence));
}
