import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { NO_GOLD, recordError, validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';
import { mapSentenceContexts } from './sentenceContexts';

const HotpotRecord = z.object({
  _id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answer: z.string(),
  type: z.string().optional(),
  context: z.array(z.tuple([z.string(), z.array(z.string())])),
  supporting_facts: z.array(z.tuple([z.string(), z.number().int()])),
  /** 2WikiMultiHopQA: the answer's Wikidata id, the key of its aliases in id_aliases.json (null for a yes/no answer). */
  answer_id: z.string().nullish(),
});

const HotpotTestRecord = HotpotRecord.pick({ _id: true, question: true, type: true, context: true });

/** Original HotpotQA and 2WikiMultiHopQA JSON: `context: [[title, [sentences]]]`, `supporting_facts: [[title, sent_id]]`. */
export function hotpotRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const value = record.value as Record<string, unknown> | undefined;
  if (value && typeof value === 'object' && !('answer' in value)) {
    if (!ctx.goldOptional) throw recordError(record, ctx.file, 'answer', `missing: ${NO_GOLD}`);
    // A test split (2WikiMultiHopQA's test.json): the question and its paragraphs, no gold to score against.
    const t = validateRecord(HotpotTestRecord, record, ctx.file);
    const context = t.context.map(([title, sentences]) => ({ title, sentences }));
    return mapSentenceContexts({ id: t._id, question: t.question, answer: '', type: t.type, context, supportingFacts: [], fields: { supportingTitle: (i) => `supporting_facts[${i}][0]` } }, record, ctx);
  }
  const r = validateRecord(HotpotRecord, record, ctx.file);
  if (!r.answer.trim()) throw recordError(record, ctx.file, 'answer', 'is empty');
  const loaded = mapSentenceContexts(
    {
      id: r._id,
      question: r.question,
      answer: r.answer,
      type: r.type,
      context: r.context.map(([title, sentences]) => ({ title, sentences })),
      supportingFacts: r.supporting_facts.map(([title, sentence]) => ({ title, sentence })),
      fields: { supportingTitle: (i) => `supporting_facts[${i}][0]` },
    },
    record,
    ctx,
  );
  return r.answer_id ? { ...loaded, answerId: r.answer_id } : loaded;
}
