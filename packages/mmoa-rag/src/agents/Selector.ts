import type { ModelPort } from '@multihop/core';
import { selectorPrompt, type CandidateDocument } from '../prompts';
import { readSelection, type SelectorReading } from '../rewards';

export interface SelectorTurn extends SelectorReading {
  /** Observation O_S: the question and the numbered candidates. */
  vars: Record<string, unknown>;
  /** Action: the reply exactly as written. */
  text: string;
}

/** The Selector (S): observation q and D = Document0…DocumentK−1, action the IDs of D_selected. */
export async function selectDocuments(model: ModelPort, question: string, candidates: readonly CandidateDocument[], extra: Record<string, unknown> = {}): Promise<SelectorTurn> {
  const vars = { question, candidates };
  const { output } = await model.call({ prompt: selectorPrompt, vars: { ...vars, ...extra } });
  return { vars, text: output.selection, ...readSelection(output.selection, candidates.length) };
}
