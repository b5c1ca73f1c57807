import type { RunContext } from '@multihop/core';
import { LIST_MARKER, maoDecomposeParallelPrompt, maoDecomposeSerialPrompt, maoReviseSerialPrompt } from '../prompts';

/** One answered sub-question, as the executors after it see it. */
export interface SubAnswer {
  step: number;
  subGoal: string;
  answer: string;
}

function cleaned(list: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const q = raw.trim().replace(LIST_MARKER, '').trim();
    const key = q.toLowerCase();
    if (!q || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out.slice(0, Math.max(1, max));
}

/**
 * QDS: ordered sub-questions whose later members may depend on earlier answers, at most `max`
 * (the authors cap decompositions at 4). Duplicates and list numbering are dropped.
 */
export async function decomposeSerial(ctx: RunContext, question: string, max: number): Promise<string[]> {
  const { output } = await ctx.model.call({ prompt: maoDecomposeSerialPrompt, vars: { question, count: max } });
  return cleaned(output.subQuestions, max);
}

/** QDS between turns: the next draft rewritten with the answers found so far, so it can be searched alone. */
export async function reviseSubQuestion(ctx: RunContext, question: string, draft: string, answered: readonly SubAnswer[]): Promise<string> {
  const { output } = await ctx.model.call({
    prompt: maoReviseSerialPrompt,
    vars: { question, subGoal: draft, trajectory: answered.map((a) => ({ step: String(a.step), subGoal: a.subGoal, answer: a.answer, status: 'yes' })) },
  });
  return output.question.trim() || draft;
}

/** QDP: independent sub-questions, at most `max`. */
export async function decomposeParallel(ctx: RunContext, question: string, max: number): Promise<string[]> {
  const { output } = await ctx.model.call({ prompt: maoDecomposeParallelPrompt, vars: { question, count: max } });
  return cleaned(output.subQuestions, max);
}
