import type { RunContext } from '@multihop/core';
import { maoSummarisePrompt } from '../prompts';
import type { SubAnswer } from './QueryDecomposition';

/** AS: the question's answer from its sub-questions' answers (after QDS or QDP, or at the turn bound). */
export async function summariseAnswers(ctx: RunContext, question: string, answered: readonly SubAnswer[]): Promise<string> {
  const { output } = await ctx.model.call({
    prompt: maoSummarisePrompt,
    vars: { question, trajectory: answered.map((a) => ({ step: String(a.step), subGoal: a.subGoal, answer: a.answer, status: 'yes' })) },
  });
  return output.answer.trim();
}
