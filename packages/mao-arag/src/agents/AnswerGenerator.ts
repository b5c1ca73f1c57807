import type { RunContext, SearchHit } from '@multihop/core';
import { maoAnswerPrompt } from '../prompts';
import type { SubAnswer } from './QueryDecomposition';

/**
 * AG: a short answer to `question` from the passages gathered on this turn (none when the
 * workflow has no R), with the earlier sub-answers when the turn is a serial sub-question.
 */
export async function generateAnswer(ctx: RunContext, question: string, passages: readonly SearchHit[], earlier: readonly SubAnswer[] = []): Promise<string> {
  const { output } = await ctx.model.call({
    prompt: maoAnswerPrompt,
    vars: { question, passages: [...passages], trajectory: earlier.map((a) => ({ step: String(a.step), subGoal: a.subGoal, answer: a.answer, status: 'yes' })) },
  });
  return output.answer.trim();
}
