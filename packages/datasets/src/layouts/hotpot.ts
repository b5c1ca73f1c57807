import { z } from 'zod';
import type { CorpusBuilder } from '../CorpusBuilder';
import type { SourceRecord } from '../readRecords';
import { validateRecord } from '../validateRecord';
import type { LayoutResult } from './LayoutResult';
import { mapSentenceContexts } from './sentenceContexts';

const HotpotRecord = z.object({
  _id: z.union([z.string(), z.number()]).transform(String),
  question: z.string(),
  answer: z.string(),
  type: z.string().optional(),
  context: z.array(z.tuple([z.string(), z.array(z.string())])),
  supporting_facts: z.array(z.tuple([z.string(), z.number().int()])),
});

/** Original HotpotQA and 2WikiMultiHopQA JSON: `context: [[title, [sentences]]]`, `supporting_facts: [[title, sent_id]]`. */
export function fromHotpot(records: SourceRecord[], file: string, corpus: CorpusBuilder): LayoutResult {
  const result: LayoutResult = { questions: [], contexts: {}, warnings: [] };
  for (const record of records) {
    const r = validateRecord(HotpotRecord, record, file);
    const { question, context } = mapSentenceContexts(
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
      file,
      corpus,
      result.warnings,
    );
    result.questions.push(question);
    result.contexts[question.id] = context;
  }
  return result;
}
