import type { RunContext, SearchHit } from '@multihop/core';
import { maoDocumentSelectPrompt } from '../prompts';

/**
 * DS: the retrieved passages that help answer `question`. The model names indices only; an
 * index out of range or repeated is ignored. Keeping nothing would leave AG blind, so an empty
 * selection keeps the passages as they were (the authors keep all on an unreadable reply).
 */
export async function selectDocuments(ctx: RunContext, question: string, passages: readonly SearchHit[]): Promise<{ kept: SearchHit[]; indices: number[] }> {
  if (passages.length === 0) return { kept: [], indices: [] };
  const candidates = passages.map((p, index) => ({ index, title: p.title, text: p.text }));
  const { output } = await ctx.model.call({ prompt: maoDocumentSelectPrompt, vars: { question, candidates } });
  const indices = [...new Set(output.keep)].filter((i) => i >= 0 && i < passages.length).sort((a, b) => a - b);
  if (indices.length === 0) return { kept: [...passages], indices: passages.map((_, i) => i) };
  return { kept: indices.map((i) => passages[i]!), indices };
}
