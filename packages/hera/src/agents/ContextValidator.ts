import { heraValidatePrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import type { Blackboard } from './Blackboard';
import { branchQuestion } from './EvidenceSelector';

/** Context Validator: whether the passages suffice; when not, the missing fact becomes a follow-up search for the next Retriever. */
export async function contextValidator({ ctx, promptFor }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const { output } = await ctx.model.call({ prompt: promptFor(heraValidatePrompt), vars: { question: branchQuestion(task), passages: task.input.passages } });
  const missing = output.missing.trim();
  ctx.decide(output.sufficient ? 'sufficient' : 'insufficient', { step: task.step.step, ...(missing ? { missing } : {}) });
  return { ...task.input, sufficient: output.sufficient, followUps: !output.sufficient && missing ? [missing] : [] };
}
