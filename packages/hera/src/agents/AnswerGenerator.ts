import { substitutePlaceholders } from '@multihop/core';
import { heraAnswerPrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import { trajectoryOf, type Blackboard } from './Blackboard';

/**
 * Answer Generator: answers the sub-questions its branch focuses on that are still open; with
 * none open, answers the query itself from the passages and the answers found so far.
 */
export async function answerGenerator({ ctx, promptFor }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const { input } = task;
  const open = input.focus.filter((id) => input.subAnswers[id] === undefined && input.subQuestions[Number(id) - 1] !== undefined);
  const ask = (subGoal: string) => ctx.model.call({ prompt: promptFor(heraAnswerPrompt), vars: { question: task.question, subGoal, trajectory: trajectoryOf(input), passages: input.passages } });
  if (open.length > 0) {
    const answered = await Promise.all(open.map(async (id) => [id, (await ask(substitutePlaceholders(input.subQuestions[Number(id) - 1]!, input.subAnswers))).output.answer.trim()] as const));
    const subAnswers = { ...input.subAnswers, ...Object.fromEntries(answered) };
    ctx.decide('sub-answers', { step: task.step.step, answers: Object.fromEntries(answered) });
    return { ...input, subAnswers };
  }
  const { output } = await ask(task.question);
  const answer = output.answer.trim();
  ctx.draft(answer);
  return { ...input, answers: [...input.answers, answer] };
}
