import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';
import { mapSentenceContexts } from './sentenceContexts';

const HfHotpotRecord = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answer: z.string(),
  type: z.string().optional(),
  context: z.object({ title: z.array(z.string()), sentences: z.array(z.array(z.string())) }),
  supporting_facts: z.object({ title: z.array(z.string()), sent_id: z.array(z.number().int()) }),
});

/** Hugging Face `hotpot_qa`: column-oriented `context: {title, sentences}` and `supporting_facts: {title, sent_id}`. */
export function hfHotpotRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(HfHotpotRecord, record, ctx.file);
  // (The hotpot_qa fullwiki test split hides its answers as "": there is nothing to score it against.)
  if (!r.answer.trim()) throw recordError(record, ctx.file, 'answer', 'is empty');
  if (r.context.title.length !== r.context.sentences.length) {
    throw recordError(record, ctx.file, 'context.sentences', `has ${r.context.sentences.length} entries for ${r.context.title.length} titles`);
  }
  if (r.supporting_facts.title.length !== r.supporting_facts.sent_id.length) {
    throw recordError(record, ctx.file, 'supporting_facts.sent_id', `has ${r.supporting_facts.sent_id.length} entries for ${r.supporting_facts.title.length} titles`);
  }
  return mapSentenceContexts(
    {
      id: r.id,
      question: r.question,
      answer: r.answer,
      type: r.type,
      context: r.context.title.map((title, i) => ({ title, sentences: r.context.sentences[i] ?? [] })),
      supportingFacts: r.supporting_facts.title.map((title, i) => ({ title, sentence: r.supporting_facts.sent_id[i] ?? -1 })),
      fields: { supportingTitle: (i) => `supporting_facts.title[${i}]` },
    },
    record,
    ctx,
  );
}
