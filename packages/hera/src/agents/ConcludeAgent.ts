import { heraConcludePrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import { trajectoryOf, type Blackboard } from './Blackboard';

/** Conclude Agent: the final answer from every sub-answer, candidate answer and passage it receives. */
export async function concludeAgent({ ctx, promptFor }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const { output } = await ctx.model.call({ prompt: promptFor(heraConcludePrompt), vars: { question: task.question, trajectory: trajectoryOf(task.input), passages: task.input.passages } });
  const conclusion = output.answer.trim();
  ctx.draft(conclusion);
  return { ...task.input, conclusion };
}
