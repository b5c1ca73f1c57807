import { InputError } from '@multihop/core';
import { describeLayouts, type Layout } from './Dataset';
import type { SourceRecord } from './readRecords';
import { NO_GOLD } from './validateRecord';

/** The fields of a record that has a question and nothing to score it against. */
const QUESTION_ONLY = new Set(['id', '_id', 'qid', 'question_id', 'question', 'query', 'type', 'level', 'metadata']);

/** Tells the layout from the first record's fields; the caller can override it. */
export function detectLayout(records: SourceRecord[], file: string, options: { goldOptional?: boolean } = {}): Layout {
  const first = records[0];
  if (!first) throw new InputError(`${file} holds no records`, { file });
  const r = first.value;
  if (!r || typeof r !== 'object' || Array.isArray(r)) {
    throw new InputError(`${file}:${first.line}: cannot detect the layout: the first record is not an object\nThe layouts and what each needs:\n${describeLayouts()}`, { file, line: first.line });
  }
  const fields = r as Record<string, unknown>;
  const has = (k: string) => k in fields;
  const hasAny = (...keys: string[]) => Object.keys(fields).some((k) => keys.includes(k.toLowerCase()));
  const context = fields.context;
  if (has('question_text') && has('contexts')) return 'ircot';
  if (has('paragraphs') && has('question')) return 'musique';
  // MoreHopQA's context is HotpotQA's, but its gold is in the decomposition, not in supporting_facts.
  if (context && !has('supporting_facts') && (has('previous_question') || has('question_decomposition'))) return 'morehopqa';
  if (Array.isArray(context)) return 'hotpot';
  if (context && typeof context === 'object' && 'title' in context && 'sentences' in context) return 'hf-hotpot';
  if (has('Prompt') && has('Answer')) return 'frames';
  if (has('question') && Array.isArray(fields.answers)) return 'plain';
  if (hasAny('question', 'query') && hasAny('answer', 'answers', 'golden_answers', 'gold_answer', 'gold_answers')) return 'qa';
  // Only a question and what names or sorts it: a question set without gold (a test split), not gold under a name of its own.
  if (hasAny('question', 'query') && Object.keys(fields).every((k) => QUESTION_ONLY.has(k.toLowerCase()))) {
    if (options.goldOptional) return 'qa';
    throw new InputError(`${file}:${first.line}: the records have a question but no answer field (fields [${Object.keys(fields).join(', ')}]): ${NO_GOLD}`, { file, line: first.line, field: 'answer' });
  }
  const corpusLike = (has('title') && (has('text') || has('passage'))) || has('contents');
  throw new InputError(
    `${file}:${first.line}: cannot detect the layout from fields [${Object.keys(fields).join(', ')}]` +
      (corpusLike ? ' (this looks like a corpus file: pass it as `corpus`, --corpus)' : '') +
      `; pass \`layout\` (--layout) to say which it is. The layouts and what each needs:\n${describeLayouts()}`,
    { file, line: first.line },
  );
}

/** Whether a file's records are corpus passages rather than questions (`{title, text}`, `{title, passage}`, `{id, contents}`, `{title: [sentences]}`). */
export function looksLikeCorpus(records: SourceRecord[]): boolean {
  const first = records[0];
  if (!first) return false;
  if (first.key !== undefined) return true;
  const r = first.value;
  if (!r || typeof r !== 'object' || Array.isArray(r)) return false;
  const has = (k: string) => k in r;
  return !has('question') && !has('question_text') && ((has('title') && (has('text') || has('passage'))) || has('contents'));
}
