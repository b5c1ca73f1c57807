import { heraDecomposePrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import type { Blackboard } from './Blackboard';

/** Query Decomposer: the query as sub-questions (later ones name earlier answers by placeholder). */
export async function queryDecomposer({ ctx, promptFor, maxSubQuestions }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const { output } = await ctx.model.call({ prompt: promptFor(heraDecomposePrompt), vars: { question: task.question, count: maxSubQuestions } });
  const subQuestions = output.subQuestions.map((q) => q.trim()).filter((q) => q !== '').slice(0, maxSubQuestions);
  ctx.decide('sub-questions', { step: task.step.step, subQuestions });
  return { ...task.input, subQuestions, subAnswers: {}, focus: [] };
}
