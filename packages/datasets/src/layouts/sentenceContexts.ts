import type { Question } from '@multihop/core';
import type { SourceRecord } from '../readRecords';
import { foldTitle } from '../CorpusBuilder';
import { recordError, where } from '../validateRecord';
import type { GoldTitle, LayoutContext, LoadedQuestion } from './LayoutContext';

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
 * A fact whose title is not in the question's own context (HotpotQA fullwiki) invalidates the
 * record in the closed setting, and is left to the pool in the open one.
 */
export function mapSentenceContexts(q: SentenceContextQuestion, record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const ids: string[] = [];
  // By title, and by the title folded (Unicode NFC, case, underscores and spaces), as the official
  // evaluators compare titles: a fact may spell its title otherwise than the context does.
  const byTitle = new Map<string, { id: string; sentences: number }>();
  const byFolded = new Map<string, { id: string; sentences: number }>();
  for (const c of q.context) {
    const id = ctx.corpus.addSentences(c.title, c.sentences);
    if (!ids.includes(id)) ids.push(id);
    if (!byTitle.has(c.title)) byTitle.set(c.title, { id, sentences: c.sentences.length });
    if (!byFolded.has(foldTitle(c.title))) byFolded.set(foldTitle(c.title), { id, sentences: c.sentences.length });
  }
  const gold: string[] = [];
  const sentences: Array<{ passageId: string; sentence: number }> = [];
  const elsewhere: GoldTitle[] = [];
  q.supportingFacts.forEach((fact, i) => {
    const paragraph = byTitle.get(fact.title) ?? byFolded.get(foldTitle(fact.title));
    if (!paragraph) {
      if (ctx.setting === 'closed') {
        throw recordError(record, ctx.file, q.fields.supportingTitle(i), `title "${fact.title}" is not in the question's context (the closed setting searches only a question's own paragraphs; the open setting looks gold up in the whole pool)`);
      }
      elsewhere.push({ title: fact.title, sentence: fact.sentence });
      return;
    }
    if (!gold.includes(paragraph.id)) gold.push(paragraph.id);
    // 2Wiki dev has a fact pointing one past the paragraph's last sentence; the paragraph is still gold.
    if (fact.sentence >= 0 && fact.sentence < paragraph.sentences) sentences.push({ passageId: paragraph.id, sentence: fact.sentence });
    else ctx.warnings.push(`${where(record, ctx.file)}: question ${q.id}: supporting sentence ${fact.sentence} of "${fact.title}" is out of range (${paragraph.sentences} sentences); kept the paragraph only`);
  });
  const hops = new Set(q.supportingFacts.map((f) => foldTitle(f.title))).size;
  const question: Question = {
    id: q.id,
    text: q.question,
    answer: q.answer,
    aliases: [],
    supportingIds: gold,
    supportingSentences: sentences,
    type: q.type,
    hops: hops || undefined,
  };
  return { question, context: ids, ...(elsewhere.length ? { goldTitles: elsewhere } : {}) };
}
