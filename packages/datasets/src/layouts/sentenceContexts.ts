import type { Question } from '@multihop/core';
import type { CorpusBuilder } from '../CorpusBuilder';
import type { SourceRecord } from '../readRecords';
import { recordError } from '../validateRecord';

export interface SentenceContextQuestion {
  id: string;
  question: string;
  answer: string;
  type?: string;
  context: Array<{ title: string; sentences: string[] }>;
  supportingFacts: Array<{ title: string; sentence: number }>;
  /** Field names for error messages, which differ between the original and the HF layout. */
  fields: { supportingTitle: (i: number) => string };
}

/**
 * Shared by the original HotpotQA/2Wiki JSON and the Hugging Face `hotpot_qa` layout: both give
 * paragraphs as sentence lists and gold as (title, sentence index) pairs. A sentence fact maps to
 * its paragraph (supportingIds) and is kept as {passageId, sentence} (supportingSentences).
 */
export function mapSentenceContexts(
  q: SentenceContextQuestion,
  record: SourceRecord,
  file: string,
  corpus: CorpusBuilder,
  warnings: string[],
): { question: Question; context: string[] } {
  const ids: string[] = [];
  const byTitle = new Map<string, { id: string; sentences: number }>();
  for (const c of q.context) {
    const id = corpus.addSentences(c.title, c.sentences);
    if (!ids.includes(id)) ids.push(id);
    if (!byTitle.has(c.title)) byTitle.set(c.title, { id, sentences: c.sentences.length });
  }
  const gold: string[] = [];
  const sentences: Array<{ passageId: string; sentence: number }> = [];
  q.supportingFacts.forEach((fact, i) => {
    const paragraph = byTitle.get(fact.title);
    if (!paragraph) throw recordError(record, file, q.fields.supportingTitle(i), `title "${fact.title}" is not in the question's context`);
    if (!gold.includes(paragraph.id)) gold.push(paragraph.id);
    // 2Wiki dev has a fact pointing one past the paragraph's last sentence; the paragraph is still gold.
    if (fact.sentence >= 0 && fact.sentence < paragraph.sentences) sentences.push({ passageId: paragraph.id, sentence: fact.sentence });
    else warnings.push(`${file}:${record.line}: question ${q.id}: supporting sentence ${fact.sentence} of "${fact.title}" is out of range (${paragraph.sentences} sentences); kept the paragraph only`);
  });
  return {
    question: {
      id: q.id,
      text: q.question,
      answer: q.answer,
      aliases: [],
      supportingIds: gold,
      supportingSentences: sentences,
      type: q.type,
      hops: gold.length || undefined,
    },
    context: ids,
  };
}
