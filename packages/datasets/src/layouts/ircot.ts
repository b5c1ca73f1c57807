import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
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
// Blank spans are no answer (an empty gold answer would score every prediction wrong).
function answerTexts(a: { spans?: string[]; number?: string | number; date?: { day?: string; month?: string; year?: string } }): string[] {
  const spans = (a.spans ?? []).filter((s) => s.trim() !== '');
  if (spans.length) return spans;
  if (a.number !== undefined && String(a.number).trim() !== '') return [String(a.number)];
  const date = [a.date?.day, a.date?.month, a.date?.year].filter((part) => part?.trim()).join(' ');
  return date ? [date] : [];
}

/** IRCoT processed JSONL (`question_id`, `question_text`, `answers_objects`, `contexts[].is_supporting`). */
export function ircotRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(IrcotRecord, record, ctx.file);
  const spans = r.answers_objects.flatMap(answerTexts);
  const answer = spans[0];
  if (answer === undefined) throw recordError(record, ctx.file, 'answers_objects', 'is empty (no span, number or date)');
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
      answer,
      aliases: [...new Set(spans.slice(1))].filter((a) => a !== answer),
      supportingIds: gold,
      hops: gold.length || undefined,
    },
    context: ids,
  };
}
