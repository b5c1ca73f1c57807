import type { ModelPort } from '@multihop/core';
import { generatorPrompt, type CandidateDocument } from '../prompts';

export interface GeneratorTurn {
  /** Observation O_G: the question and D_selected. */
  vars: Record<string, unknown>;
  /** Action: the reply as written (what the length check and the F1 read). */
  text: string;
  /** The reply with the `*` of a `**answer**` form removed, as the authors clean it. */
  answer: string;
}

/** The Generator (G): the answer from the documents it is given. */
export async function generateAnswer(model: ModelPort, question: string, documents: readonly CandidateDocument[], extra: Record<string, unknown> = {}): Promise<GeneratorTurn> {
  const vars = { question, passages: documents };
  const { output } = await model.call({ prompt: generatorPrompt, vars: { ...vars, ...extra } });
  return { vars, text: output.answer, answer: output.answer.replace(/\*/g, '').trim() };
}
