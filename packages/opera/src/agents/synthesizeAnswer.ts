import type { ModelPort } from '@multihop/core';
import { operaSynthesisPrompt } from '../prompts';
import type { TrajectoryMemory } from '../TrajectoryMemory';

/**
 * The final step (opera.md "Critical path", step 5): the answer composed from the trajectory
 * memory, so a plan whose last step is a comparison or a bridge still ends in one short answer.
 */
export async function synthesizeAnswer(model: ModelPort, question: string, memory: TrajectoryMemory): Promise<{ answer: string; reasoning: string }> {
  const trajectory = memory.map((e) => ({ step: e.stepId, subGoal: e.subGoal, answer: e.answer, status: e.status }));
  const { output } = await model.call({ prompt: operaSynthesisPrompt, vars: { question, trajectory } });
  return { answer: output.answer.trim(), reasoning: output.reasoning };
}
