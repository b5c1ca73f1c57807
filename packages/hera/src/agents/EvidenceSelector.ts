import { substitutePlaceholders } from '@multihop/core';
import { heraSelectPrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import type { Blackboard } from './Blackboard';

/** The question a branch works on: its one focused sub-question (answers written in), else the query. */
export function branchQuestion(task: AgentTask): string {
  const { focus, subQuestions, subAnswers } = task.input;
  if (focus.length !== 1) return task.question;
  const sub = subQuestions[Number(focus[0]) - 1];
  return sub ? substitutePlaceholders(sub, subAnswers) : task.question;
}

/** Evidence Selector: keeps the passages that help answer the branch's question (all of them if it keeps none). */
export async function evidenceSelector({ ctx, promptFor }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  const passages = task.input.passages;
  if (passages.length === 0) return task.input;
  const candidates = passages.map((p, index) => ({ index, title: p.title, text: p.text }));
  const { output } = await ctx.model.call({ prompt: promptFor(heraSelectPrompt), vars: { question: branchQuestion(task), candidates } });
  const kept = passages.filter((_, i) => output.keep.includes(i));
  ctx.decide('selected', { step: task.step.step, kept: kept.map((p) => p.id), of: passages.length });
  return { ...task.input, passages: kept.length > 0 ? kept : passages };
}
