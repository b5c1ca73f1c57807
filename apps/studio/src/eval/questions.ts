import { hasJudge, verdictKey, type EvalData, type EvalRow } from './types';

/** One question of the eval with each workflow's row. */
export interface QuestionGroup {
  id: string;
  text: string;
  gold: string[];
  rows: Map<string, EvalRow>;
}

/** The rows grouped by question, in the order the questions first appear in results.jsonl. */
export function groupQuestions(rows: readonly EvalRow[]): QuestionGroup[] {
  const groups = new Map<string, QuestionGroup>();
  for (const row of rows) {
    let group = groups.get(row.questionId);
    if (!group) {
      group = { id: row.questionId, text: row.question, gold: row.gold, rows: new Map() };
      groups.set(row.questionId, group);
    }
    group.rows.set(row.workflow, row);
  }
  return [...groups.values()];
}

/** The judge's verdict on a row: 1, 0, or undefined when it was not judged. */
export const verdictOf = (data: EvalData, row: EvalRow): 0 | 1 | undefined => data.verdicts?.[verdictKey(row.workflow, row.questionId)];

/**
 * Whether a row counts as right, as the summary counts it: in a judged eval the judge's verdict (an
 * answer without one, a judge error or one not judged yet, is not counted right); else EM.
 */
export const isRight = (data: EvalData, row: EvalRow): boolean => (hasJudge(data.summary) ? verdictOf(data, row) === 1 : row.metrics.em === 1);

export type Outcome = 'all' | 'none-right' | 'split' | 'all-right';

/** Each question's searchable text, lower-cased once (not again on every keystroke of the filter). */
const haystacks = new WeakMap<QuestionGroup, string>();
const haystackOf = (g: QuestionGroup): string => {
  let text = haystacks.get(g);
  if (text === undefined) {
    text = searchable([g.id, g.text, ...g.gold, ...[...g.rows.values()].map((r) => r.prediction)].join('\n'));
    haystacks.set(g, text);
  }
  return text;
};

/** Text as the filter compares it: lower case, accents and other combining marks dropped ("Zurich" finds "Zürich"). */
export const searchable = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Which questions a filter keeps: the text matches (question, id, gold, any answer) and the outcome fits. */
export function filterQuestions(data: EvalData, groups: readonly QuestionGroup[], text: string, outcome: Outcome): QuestionGroup[] {
  const needle = searchable(text.trim());
  return groups.filter((g) => {
    if (needle && !haystackOf(g).includes(needle)) return false;
    if (outcome === 'all') return true;
    const right = [...g.rows.values()].map((r) => isRight(data, r));
    const count = right.filter(Boolean).length;
    if (outcome === 'none-right') return count === 0;
    if (outcome === 'all-right') return count === right.length;
    return count > 0 && count < right.length;
  });
}

export const rowTokens = (row: EvalRow): number => (row.usage?.promptTokens ?? 0) + (row.usage?.completionTokens ?? 0);

/**
 * How the summary's figures count a run that did not end ok: one stopped early on the answer it had;
 * a failure of the workflow's own as a wrong answer (its draft answer's EM and F1 named); other
 * failures not at all.
 */
export function scoredNote(row: EvalRow): string | undefined {
  if (row.status === 'ok') return undefined;
  if (row.status === 'partial') return `stopped early${row.stopReason ? ` (${row.stopReason})` : ''}: scored on the answer it had`;
  if (row.scoredAsWrong) {
    const draft = row.draftMetrics ? ` (its draft answer: EM ${row.draftMetrics.em}, F1 ${row.draftMetrics.f1.toFixed(2)})` : '';
    return `the workflow's own failure (${row.errorCode ?? 'error'}): scored as a wrong answer in every figure${draft}`;
  }
  return `${row.errorCode ?? row.status}: left out of the figures (not the workflow's own failure)`;
}
