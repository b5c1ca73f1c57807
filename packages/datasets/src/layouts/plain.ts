import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';

const PlainRecord = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answers: z.array(z.string()),
  supporting_ids: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  type: z.string().optional(),
});

/**
 * Plain JSONL questions `{id, question, answers, supporting_ids?}` over a separate corpus file
 * (see loadCorpus). Gold ids must exist in that corpus, so a typo fails at load, not as zero recall.
 */
export function plainRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(PlainRecord, record, ctx.file);
  const answers = [...new Set(r.answers.filter((a) => a.trim() !== ''))];
  const answer = answers[0];
  // A question list's record without answers (a test split) loads with no gold where that is allowed.
  if (answer === undefined && !ctx.goldOptional) throw recordError(record, ctx.file, 'answers', 'is empty');
  const gold = r.supporting_ids ?? [];
  gold.forEach((id, i) => {
    if (!ctx.corpus.has(id)) {
      throw recordError(record, ctx.file, `supporting_ids[${i}]`, ctx.corpus.size === 0 ? `names passage "${id}", but no corpus file was given (option \`corpus\`, --corpus)` : `passage id "${id}" is not in the corpus`);
    }
  });
  return {
    question: {
      id: r.id,
      text: r.question,
      answer: answer ?? '',
      aliases: answers.slice(1),
      supportingIds: [...new Set(gold)],
      type: r.type,
      hops: gold.length || undefined,
    },
  };
}
