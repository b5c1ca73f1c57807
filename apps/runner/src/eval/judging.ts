import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { onPath } from '../io';
import { join } from 'node:path';
import { spentOf, type CallUsage, type ModelPort } from '@multihop/core';
import { judgeCorrectness } from '@multihop/metrics';
import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { readJsonlLog, runPool } from './jsonl';
import type { ResultRow } from './ResultsLog';

/** One line of judgements.jsonl: the judge's verdict on one workflow's answer to one question. */
export interface Judgement {
  workflow: string;
  questionId: string;
  /** The judge model (`offline`, `openai:gpt-4o`): verdicts of another judge are not reused. */
  judge: string;
  /** sha1 of question, prediction, gold and the judge prompt's version: a re-run whose answer (or judge prompt) changed is judged again. */
  key: string;
  /** 1 or 0 by PAR² A.2's rule; null when the judge failed (see `error`). */
  correct: 0 | 1 | null;
  decision?: string;
  explanation?: string;
  /** The judge's raw reply (both replies when it failed to follow the format). */
  raw?: string[];
  error?: string;
  /** Absent when the answer was empty: nothing to judge, scored 0 without a call. */
  usage?: CallUsage;
}

/** Judge failures worth another try on the next run (the provider was down), unlike a reply in the wrong form. */
const RETRY_JUDGE = new Set(['PROVIDER', 'ABORTED']);

/** A failed verdict's error code, the part of `error` before its first colon. */
const judgeErrorCode = (j: Judgement): string => j.error?.split(':')[0] ?? 'ERROR';

/** Whether a re-run asks the judge again about a failure with this code. */
export const judgeRetries = (code: string): boolean => RETRY_JUDGE.has(code);

/**
 * What a verdict is on: the question, the answer, the gold and the judge prompt's id and version
 * (a changed answer is judged again, and so is every answer once the judge prompt changes: a
 * verdict of the prompt before is not this prompt's).
 */
export function judgeKey(row: Pick<ResultRow, 'question' | 'prediction' | 'gold'>): string {
  return keyOf(row, `${judgeCorrectnessPrompt.id}@${judgeCorrectnessPrompt.version}`);
}

/**
 * Reads verdicts as JudgeLog matches them, for readers of a finished eval (the router's trainer,
 * the studio): the verdict of the first of `judges` that has one (an eval's judge key, then its
 * bare model id, under which an eval written before keys carried the judge's set-up kept them) on
 * the row's answer under `key` (judgeKey by default: this judge prompt's), the newest line winning.
 */
export function verdictIndex(judgements: readonly Judgement[], judges: readonly string[]): (row: Pick<ResultRow, 'workflow' | 'questionId' | 'question' | 'prediction' | 'gold'>, key?: string) => Judgement | undefined {
  const found = new Map<string, Judgement>();
  for (const j of judgements) if (judges.includes(j.judge)) found.set(`${j.judge}\u0000${j.workflow}\u0000${j.questionId}\u0000${j.key}`, j);
  return (row, key = judgeKey(row)) => judges.map((judge) => found.get(`${judge}\u0000${row.workflow}\u0000${row.questionId}\u0000${key}`)).find((j) => j !== undefined);
}

/** The key verdicts were kept under before it named the judge prompt's version (judge prompt version 3 and earlier). */
export function legacyJudgeKey(row: Pick<ResultRow, 'question' | 'prediction' | 'gold'>): string {
  return keyOf(row);
}

function keyOf(row: Pick<ResultRow, 'question' | 'prediction' | 'gold'>, prompt?: string): string {
  return createHash('sha1').update(JSON.stringify(prompt === undefined ? [row.question, row.prediction, row.gold] : [row.question, row.prediction, row.gold, prompt])).digest('hex').slice(0, 16);
}

/**
 * The LLM judge over an evaluation's results (PAR² A.2): every answer is judged once per judge
 * model and the verdicts are kept in judgements.jsonl, so a resumed or repeated evaluation
 * calls the judge only for answers it has not judged. The judge's tokens are its own, apart
 * from the workflows' cost.
 */
export class JudgeLog {
  private readonly byKey = new Map<string, Judgement>();
  readonly file: string;

  constructor(
    dir: string,
    readonly judge: string,
    /**
     * The judge's bare model id when `judge` adds its set-up to it: the verdicts an eval written
     * before judges were told apart by set-up kept under that id are its own, as its runs are.
     */
    private readonly legacy?: string,
  ) {
    this.file = join(dir, 'judgements.jsonl');
    for (const j of readJsonlLog<Judgement>(this.file, ['workflow', 'questionId', 'judge', 'key'])) this.byKey.set(this.id(j.workflow, j.questionId, j.key, j.judge), j);
  }

  private id(workflow: string, questionId: string, key: string, judge = this.judge): string {
    return `${judge}\u0000${workflow}\u0000${questionId}\u0000${key}`;
  }

  /** This judge's verdict on the row's current answer, if it has one. */
  verdict(row: ResultRow): Judgement | undefined {
    const key = judgeKey(row);
    return this.byKey.get(this.id(row.workflow, row.questionId, key)) ?? (this.legacy ? this.byKey.get(this.id(row.workflow, row.questionId, key, this.legacy)) : undefined);
  }

  /**
   * The rows this judge still owes a verdict: none yet, or a call that failed for a passing reason
   * (the judge's endpoint unreachable, the call aborted), which a re-run asks again.
   */
  pending(rows: readonly ResultRow[]): ResultRow[] {
    return rows.filter((row) => {
      const found = this.verdict(row);
      return found === undefined || (found.correct === null && RETRY_JUDGE.has(judgeErrorCode(found)));
    });
  }

  /** The rows whose verdict is a failure, by error code (`PROVIDER`, `MODEL_OUTPUT`, ...). */
  failures(rows: readonly ResultRow[]): Map<string, number> {
    const codes = new Map<string, number>();
    for (const row of rows) {
      const found = this.verdict(row);
      if (found?.correct === null) codes.set(judgeErrorCode(found), (codes.get(judgeErrorCode(found)) ?? 0) + 1);
    }
    return codes;
  }

  private add(j: Judgement): void {
    onPath(this.file, () => appendFileSync(this.file, `${JSON.stringify(j)}\n`));
    this.byKey.set(this.id(j.workflow, j.questionId, j.key), j);
  }

  /**
   * Judges every row this judge has not judged yet, `concurrency` at a time. An empty answer
   * scores 0 without a call. A reply the judge prompt cannot read, after the port's repair
   * round, is recorded with its raw text and counts as a judge error, not as wrong.
   */
  async judgeAll(rows: readonly ResultRow[], model: ModelPort, options: { concurrency: number; stopped?: () => boolean; onJudged?: () => void }): Promise<number> {
    const todo = this.pending(rows);
    await runPool(
      todo,
      options.concurrency,
      async (row) => {
        const base = { workflow: row.workflow, questionId: row.questionId, judge: this.judge, key: judgeKey(row) };
        if (!row.prediction.trim()) {
          this.add({ ...base, correct: 0, decision: '(no answer)', explanation: 'The run gave no answer; scored 0 without asking the judge.' });
        } else {
          try {
            const verdict = await judgeCorrectness(model, { question: row.question, prediction: row.prediction, gold: row.gold }, { prompt: judgeCorrectnessPrompt });
            this.add({ ...base, correct: verdict.correct, decision: verdict.decision, explanation: verdict.explanation, raw: [verdict.text], usage: verdict.usage });
          } catch (error) {
            const code = (error as { code?: string }).code ?? 'ERROR';
            // What came back before it failed (a reply that broke the form, its repair round then failing at the provider too) was paid for.
            const spent = spentOf(error);
            this.add({
              ...base,
              correct: null,
              error: `${code}: ${(error as Error).message}`,
              ...(spent?.raw ? { raw: spent.raw } : {}),
              ...(spent?.usage ? { usage: spent.usage } : {}),
            });
          }
        }
        options.onJudged?.();
      },
      options.stopped,
    );
    return todo.length;
  }
}
