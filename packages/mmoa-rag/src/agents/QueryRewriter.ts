import type { ModelPort } from '@multihop/core';
import { queryRewriterPrompt } from '../prompts';

export interface RewriterTurn {
  /** The variables the agent saw (its observation O_QR: the question). */
  vars: Record<string, unknown>;
  /** The reply as written (its action). */
  text: string;
  subQuestions: string[];
}

/** The Query Rewriter (QR): observation q, action the sub-questions subq, one per line. */
export async function rewriteQuery(model: ModelPort, question: string, maxSubQuestions: number, extra: Record<string, unknown> = {}): Promise<RewriterTurn> {
  const vars = { question, count: maxSubQuestions };
  const { output, text } = await model.call({ prompt: queryRewriterPrompt, vars: { ...vars, ...extra } });
  return { vars, text, subQuestions: output.subQuestions };
}
