import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { NO_GOLD, recordError } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';

const QUESTION_KEYS = ['question', 'query'];
const ANSWER_KEYS = ['golden_answers', 'answers', 'answer', 'gold_answers', 'gold_answer'];
const ID_KEYS = ['id', '_id', 'qid', 'question_id'];

const Answer = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])).min(1)]);

/**
 * Questions that bring no passages: a CSV / TSV with a header (Bamboogle's `Question,Answer`),
 * FlashRAG JSONL (`{id, question, golden_answers: [...]}`), or any JSON(L) `{question, answer}`
 * whose answer is a string or a list of aliases. Column names are matched ignoring case. In a table,
 * an answer cell holding `a | b` (or a JSON list) gives aliases. Without an id the record's position
 * is the id. FlashRAG keeps the source dataset's fields in `metadata`: its `type` is kept, and the
 * titles of its `supporting_facts` become gold looked up in the pool.
 */
export function qaRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const value = record.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw recordError(record, ctx.file, 'question', 'the record is not an object');
  const r = value as Record<string, unknown>;
  const key = (names: string[]) => Object.keys(r).find((k) => names.includes(k.toLowerCase()));
  const questionKey = key(QUESTION_KEYS);
  const question = questionKey === undefined ? undefined : r[questionKey];
  if (typeof question !== 'string' || !question.trim()) {
    throw recordError(record, ctx.file, questionKey ?? 'question', questionKey === undefined ? 'required (a question column or field)' : 'must be a non-empty string');
  }
  const answerKey = key(ANSWER_KEYS);
  const given = answerKey === undefined ? undefined : r[answerKey];
  const none = given === undefined || given === null || (typeof given === 'string' && !given.trim()) || (Array.isArray(given) && given.length === 0);
  // A test split's question: no gold, for the commands that answer without scoring.
  if (none && ctx.goldOptional) return { question: { ...identity(r, ctx, question), answer: '', aliases: [], supportingIds: [] } };
  const parsed = Answer.safeParse(given);
  if (!parsed.success || answerKey === undefined) {
    throw recordError(record, ctx.file, answerKey ?? 'answer', answerKey === undefined ? `required (answer, answers or golden_answers); ${NO_GOLD}` : 'must be a string or a non-empty list of strings');
  }
  const answers = answerList(parsed.data, record.table !== undefined);
  if (answers.length === 0) throw recordError(record, ctx.file, answerKey, 'is empty');
  const metadata = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Record<string, unknown>;
  const facts = metadata.supporting_facts as { title?: unknown } | undefined;
  const titles = Array.isArray(facts?.title) ? [...new Set(facts.title.filter((t): t is string => typeof t === 'string' && t !== ''))] : [];
  return {
    question: {
      ...identity(r, ctx, question),
      answer: answers[0]!,
      aliases: answers.slice(1),
      supportingIds: [],
      ...(titles.length ? { hops: titles.length } : {}),
    },
    ...(titles.length ? { goldTitles: titles.map((title) => ({ title })) } : {}),
  };
}

/** The question's id (the record's position when it has none), text and type. */
function identity(r: Record<string, unknown>, ctx: LayoutContext, question: string): { id: string; text: string; type?: string } {
  const key = (names: string[]) => Object.keys(r).find((k) => names.includes(k.toLowerCase()));
  const idKey = key(ID_KEYS);
  const id = idKey === undefined ? '' : String(r[idKey] ?? '').trim();
  const metadata = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Record<string, unknown>;
  const typeKey = key(['type']);
  const type = typeKey !== undefined && typeof r[typeKey] === 'string' && r[typeKey] ? (r[typeKey] as string) : typeof metadata.type === 'string' ? metadata.type : undefined;
  return { id: id || String(ctx.index), text: question.trim(), ...(type ? { type } : {}) };
}

function answerList(value: string | number | Array<string | number>, fromTable: boolean): string[] {
  let list: string[];
  if (Array.isArray(value)) list = value.map(String);
  else if (fromTable) list = tableCell(String(value));
  else list = [String(value)];
  return [...new Set(list.map((a) => a.trim()).filter(Boolean))];
}

function tableCell(cell: string): string[] {
  const text = cell.trim();
  if (text.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list) && list.every((a) => typeof a === 'string')) return list;
    } catch {
      // Not a JSON list: an answer that starts with a bracket.
    }
  }
  return text.split('|');
}
