import { heraRewritePrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import type { Blackboard } from './Blackboard';

/** Query Rewriter: the question (or its last rewrite) as one precise search, which later Retrievers use. */
export async function queryRewriter({ ctx, promptFor }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const current = task.input.searchQuery ?? task.question;
  const { output } = await ctx.model.call({ prompt: promptFor(heraRewritePrompt), vars: { question: task.question, query: current } });
  return { ...task.input, searchQuery: output.query.trim() || current };
}
