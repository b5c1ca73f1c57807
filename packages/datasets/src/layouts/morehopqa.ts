import type { Question } from '@multihop/core';
import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { GoldTitle, LayoutContext, LoadedQuestion } from './LayoutContext';

const Step = z.object({
  question: z.string(),
  answer: z.union([z.string(), z.number()]).transform(String),
  paragraph_support_title: z.string().optional(),
});

const MoreHopRecord = z.object({
  _id: z.union([z.string(), z.number()]).transform(String).optional(),
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  question: z.string(),
  answer: z.union([z.string(), z.number()]).transform(String),
  previous_question: z.string().optional(),
  previous_answer: z.string().optional(),
  // The GitHub JSON gives HotpotQA's [[title, [sentences]]]; the Hugging Face export column-wise lists.
  context: z.union([
    z.array(z.tuple([z.string(), z.array(z.string())])),
    z.object({ title: z.array(z.string()), paragraphs: z.array(z.array(z.string())) }),
  ]),
  question_decomposition: z
    .union([
      z.array(Step),
      z.object({ question: z.array(z.string()), answer: z.array(z.union([z.string(), z.number()]).transform(String)), paragraph_support_title: z.array(z.string()) }),
    ])
    .optional(),
  no_of_hops: z.number().int().optional(),
  reasoning_type: z.string().optional(),
});

/**
 * MoreHopQA (Alab-NII/morehopqa, alabnii/morehopqa): HotpotQA / 2Wiki / MuSiQue questions extended
 * with a symbolic or commonsense last hop. Gold is each decomposition step's
 * `paragraph_support_title` (the last, reasoning-only steps have none); `type` is `reasoning_type`,
 * `hops` is `no_of_hops`. The Hugging Face export carries no id: the record's position is used.
 */
export function moreHopRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(MoreHopRecord, record, ctx.file);
  if (!r.answer.trim()) throw recordError(record, ctx.file, 'answer', 'is empty');
  const context = Array.isArray(r.context)
    ? r.context.map(([title, sentences]) => ({ title, sentences }))
    : r.context.title.map((title, i) => ({ title, sentences: (r.context as { paragraphs: string[][] }).paragraphs[i] ?? [] }));
  const steps = Array.isArray(r.question_decomposition)
    ? r.question_decomposition
    : r.question_decomposition
      ? r.question_decomposition.question.map((question, i) => {
          const d = r.question_decomposition as { answer: string[]; paragraph_support_title: string[] };
          return { question, answer: d.answer[i] ?? '', paragraph_support_title: d.paragraph_support_title[i] };
        })
      : [];
  const ids: string[] = [];
  const own = new Map<string, string>();
  for (const c of context) {
    const id = ctx.corpus.addSentences(c.title, c.sentences);
    if (!ids.includes(id)) ids.push(id);
    if (!own.has(c.title)) own.set(c.title, id);
  }
  const ownFolded = new Map([...own].map(([title, id]) => [title.toLowerCase(), id]));
  const find = (title: string) => own.get(title) ?? ownFolded.get(title.toLowerCase());
  const gold: string[] = [];
  const elsewhere: GoldTitle[] = [];
  const decomposition = steps.map((step, i) => {
    const title = step.paragraph_support_title?.trim();
    if (!title) return { question: step.question, answer: step.answer, supportingIds: [] as string[] };
    const id = find(title);
    if (id) {
      if (!gold.includes(id)) gold.push(id);
      return { question: step.question, answer: step.answer, supportingIds: [id] };
    }
    if (ctx.setting === 'closed') {
      throw recordError(record, ctx.file, `question_decomposition[${i}].paragraph_support_title`, `title "${title}" is not in the question's context (the closed setting searches only a question's own paragraphs; the open setting looks gold up in the whole pool)`);
    }
    if (!elsewhere.some((g) => g.title === title)) elsewhere.push({ title });
    return { question: step.question, answer: step.answer, supportingIds: [] as string[] };
  });
  const question: Question = {
    id: r._id ?? r.id ?? String(ctx.index),
    text: r.question,
    answer: r.answer,
    aliases: [],
    supportingIds: gold,
    type: r.reasoning_type,
    hops: r.no_of_hops ?? (steps.length || undefined),
    ...(decomposition.length > 0 ? { decomposition } : {}),
  };
  return { question, context: ids, ...(elsewhere.length ? { goldTitles: elsewhere } : {}) };
}
