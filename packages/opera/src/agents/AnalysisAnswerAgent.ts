import type { ModelPort, SearchHit } from '@multihop/core';
import { operaAnalysisAnswerPrompt } from '../prompts';

export interface AnalysisVerdict {
  status: 'yes' | 'no';
  answer: string;
  analysis: string;
}

export interface AnalysisInput {
  question: string;
  subGoal: string;
  memory: string[];
  hits: ReadonlyArray<Pick<SearchHit, 'id' | 'title' | 'text'>>;
}

/** The prompt variables of one analysis call; rollouts rebuild them to sample candidates. */
export function analysisVars(input: AnalysisInput): Record<string, unknown> {
  return { question: input.question, subGoal: input.subGoal, memory: input.memory, passages: input.hits.map((h) => ({ id: h.id, title: h.title, text: h.text })) };
}

/**
 * Analysis-Answer Agent (REM, opera.md "Mechanism 3"): the sufficiency indicator ϕ and, when
 * ϕ = yes, the sub-goal's answer. Judging before answering is what lets the Rewrite Agent run
 * only on failures.
 */
export async function analyseEvidence(model: ModelPort, input: AnalysisInput, extraVars: Record<string, unknown> = {}): Promise<AnalysisVerdict> {
  const { output } = await model.call({ prompt: operaAnalysisAnswerPrompt, vars: { ...analysisVars(input), ...extraVars } });
  return { status: output.status, answer: output.answer.trim(), analysis: output.analysis };
}
