import type { Question } from '@multihop/core';

/**
 * Whether a question has a gold answer to score against. A question list loaded with
 * `gold: 'optional'` (a test split) holds questions without one: an empty answer and no aliases.
 */
export function hasGold(question: Pick<Question, 'answer' | 'aliases'>): boolean {
  return question.answer.trim() !== '' || question.aliases.some((a) => a.trim() !== '');
}
