import { createPlan, readySteps, substitutePlaceholders } from '@multihop/core';
import { heraRetrievePrompt } from '../prompts';
import type { AgentRuntime, AgentTask } from './AgentTask';
import type { Blackboard } from './Blackboard';

interface Target {
  /** The sub-question id, or undefined for the whole question. */
  id?: string;
  text: string;
}

/**
 * What a Retriever step searches for: the step's own `query` when the orchestrator gave one;
 * else the Context Validator's follow-ups; else the sub-questions that are ready (every answer
 * they name is known), shared round-robin among sibling Retrievers (same dependencies), with
 * earlier answers written in; else the question (or its rewrite).
 */
export function retrievalTargets(task: AgentTask): Target[] {
  const { input, step, sibling } = task;
  if (step.query) return [{ text: substitutePlaceholders(step.query, input.subAnswers) }];
  if (input.followUps.length > 0) return input.followUps.map((text) => ({ text }));
  if (input.subQuestions.length > 0) {
    const ready = readySteps(createPlan(input.subQuestions), input.subAnswers);
    const mine = sibling.of > 1 ? ready.filter((_, j) => j % sibling.of === sibling.index) : ready;
    const chosen = mine.length > 0 ? mine : ready.slice(0, 1);
    if (chosen.length > 0) return chosen.map((s) => ({ id: s.id, text: substitutePlaceholders(s.question, input.subAnswers) }));
  }
  return [{ text: input.searchQuery ?? task.question }];
}

/**
 * Retriever (an agent with the search tool, §2's (π_i, ρ_i, T_i)): writes its search for each
 * target and takes the top-k passages (the paper's top-5 per step).
 */
export async function retriever({ ctx, promptFor, topK, gathered }: AgentRuntime, task: AgentTask): Promise<Blackboard> {
  // A Retriever turn (its targets searched together) is a hop of the run's budget (core's maxHops).
  ctx.budget.chargeHop();
  const targets = retrievalTargets(task);
  const found = await Promise.all(
    targets.map(async (target) => {
      const { output } = await ctx.model.call({ prompt: promptFor(heraRetrievePrompt), vars: { question: task.question, subGoal: target.text } });
      return { query: output.query, hits: await ctx.retriever.search(output.query, { k: topK }) };
    }),
  );
  // In target order, whichever search returned first.
  for (const search of found) gathered(search);
  const seen = new Set(task.input.passages.map((p) => p.id));
  const passages = [...task.input.passages];
  for (const hit of found.flatMap((f) => f.hits)) {
    if (seen.has(hit.id)) continue;
    seen.add(hit.id);
    passages.push(hit);
  }
  const focus = targets.flatMap((t) => (t.id ? [t.id] : []));
  return { ...task.input, passages, followUps: [], ...(focus.length > 0 ? { focus } : {}) };
}
