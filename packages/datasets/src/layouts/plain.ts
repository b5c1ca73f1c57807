import type { Question } from '@multihop/core';
import { z } from 'zod';
import type { CorpusBuilder } from '../CorpusBuilder';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { LayoutResult } from './LayoutResult';

const PlainRecord = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answers: z.array(z.string()).min(1),
  supporting_ids: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  type: z.string().optional(),
});

/**
 * Plain JSONL questions `{id, question, answers, supporting_ids?}` over a separate corpus file
 * (see loadCorpus). Gold ids must exist in that corpus, so a typo fails at load, not as zero recall.
 */
export function fromPlain(records: SourceRecord[], file: string, corpus: CorpusBuilder): LayoutResult {
  const questions: Question[] = [];
  for (const record of records) {
    const r = validateRecord(PlainRecord, record, file);
    const gold = r.supporting_ids ?? [];
    gold.forEach((id, i) => {
      if (!corpus.has(id)) throw recordError(record, file, `supporting_ids[${i}]`, `passage id "${id}" is not in the corpus`);
    });
    questions.push({
      id: r.id,
      text: r.question,
      answer: r.answers[0] ?? '',
      aliases: [...new Set(r.answers.slice(1))],
      supportingIds: [...new Set(gold)],
      type: r.type,
      hops: gold.length || undefined,
    });
  }
  return { questions, contexts: {}, warnings: [] };
}
