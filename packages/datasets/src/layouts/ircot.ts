import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';

const IrcotRecord = z.object({
  question_id: z.union([z.string(), z.number()]).transform(String),
  question_text: z.string(),
  answers_objects: z
    .array(
      z.object({
        spans: z.array(z.string()).optional(),
        number: z.union([z.string(), z.number()]).optional(),
        date: z.object({ day: z.string().optional(), month: z.string().optional(), year: z.string().optional() }).optional(),
      }),
    )
    .min(1),
  contexts: z.array(
    z.object({
      title: z.string(),
      paragraph_text: z.string(),
      is_supporting: z.boolean().optional(),
    }),
  ),
});

// IRCoT keeps DROP's answer object: span answers, or a number, or a date when there are no spans.
function answerTexts(a: { spans?: string[]; number?: string | number; date?: { day?: string; month?: string; year?: string } }): string[] {
  if (a.spans?.length) return a.spans;
  if (a.number !== undefined && String(a.number) !== '') return [String(a.number)];
  const date = [a.date?.day, a.date?.month, a.date?.year].filter(Boolean).join(' ');
  return date ? [date] : [];
}

/** IRCoT processed JSONL (`question_id`, `question_text`, `answers_objects`, `contexts[].is_supporting`). */
export function ircotRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(IrcotRecord, record, ctx.file);
  const spans = r.answers_objects.flatMap(answerTexts);
  const ids: string[] = [];
  const gold: string[] = [];
  for (const c of r.contexts) {
    const id = ctx.corpus.addText(c.title, c.paragraph_text);
    if (!ids.includes(id)) ids.push(id);
    if (c.is_supporting && !gold.includes(id)) gold.push(id);
  }
  return {
    question: {
      id: r.question_id,
      text: r.question_text,
      answer: spans[0] ?? '',
      aliases: [...new Set(spans.slice(1))],
      supportingIds: gold,
      hops: gold.length || undefined,
    },
    context: ids,
  };
}
