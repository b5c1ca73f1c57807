import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';

const MusiqueRecord = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answer: z.string(),
  answer_aliases: z.array(z.string()).optional(),
  // MuSiQue-Full's unanswerable twins (`false`); MuSiQue-Ans has every question `true`.
  answerable: z.boolean().nullable().optional(),
  paragraphs: z.array(
    z.object({
      idx: z.number().int().optional(),
      title: z.string(),
      paragraph_text: z.string(),
      is_supporting: z.boolean().optional(),
    }),
  ),
  question_decomposition: z
    .array(
      z.object({
        question: z.string().optional(),
        answer: z.string().optional(),
        paragraph_support_idx: z.number().int().nullable().optional(),
      }),
    )
    .optional(),
});

/** MuSiQue official JSONL/JSON: `paragraphs[].is_supporting`, hop order from `question_decomposition`. */
export function musiqueRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(MusiqueRecord, record, ctx.file);
  // An unanswerable twin (`answerable: false`) is left out by the loader, whatever its answer.
  if (r.answerable !== false && !r.answer.trim()) throw recordError(record, ctx.file, 'answer', 'is empty');
  const ids: string[] = [];
  const byIdx = new Map<number, string>();
  r.paragraphs.forEach((p, i) => {
    const id = ctx.corpus.addText(p.title, p.paragraph_text);
    if (!ids.includes(id)) ids.push(id);
    byIdx.set(p.idx ?? i, id);
  });
  // Gold in hop order (the decomposition's order), so the first gold passage is the first hop's.
  const gold: string[] = [];
  (r.question_decomposition ?? []).forEach((step, i) => {
    if (step.paragraph_support_idx === null || step.paragraph_support_idx === undefined) return;
    const id = byIdx.get(step.paragraph_support_idx);
    if (!id) throw recordError(record, ctx.file, `question_decomposition[${i}].paragraph_support_idx`, `no paragraph with idx ${step.paragraph_support_idx}`);
    if (!gold.includes(id)) gold.push(id);
  });
  r.paragraphs.forEach((p, i) => {
    const id = byIdx.get(p.idx ?? i);
    if (p.is_supporting && id && !gold.includes(id)) gold.push(id);
  });
  const hops = r.question_decomposition?.length;
  const steps = r.question_decomposition ?? [];
  const decomposition = steps.every((step) => step.question !== undefined && step.answer !== undefined)
    ? steps.map((step) => {
        const support = step.paragraph_support_idx === null || step.paragraph_support_idx === undefined ? undefined : byIdx.get(step.paragraph_support_idx);
        return { question: step.question as string, answer: step.answer as string, supportingIds: support ? [support] : [] };
      })
    : undefined;
  return {
    question: {
      id: r.id,
      text: r.question,
      answer: r.answer,
      aliases: [...new Set((r.answer_aliases ?? []).filter((a) => a !== r.answer && a.trim() !== ''))],
      supportingIds: gold,
      type: /^(\dhop\d?)__/.exec(r.id)?.[1] ?? (hops ? `${hops}hop` : undefined),
      hops: hops || gold.length || undefined,
      ...(decomposition && decomposition.length > 0 ? { decomposition } : {}),
    },
    context: ids,
    ...(r.answerable === false ? { unanswerable: true as const } : {}),
  };
}
