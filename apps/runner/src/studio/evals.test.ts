import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '@multihop/core';
import { judgeKey, legacyJudgeKey } from '../eval/judging';
import type { ResultRow } from '../eval/ResultsLog';
import { readEval } from './evals';
import { Roots } from './paths';

/** A results.jsonl row whose draft answer was exactly right (EM 1), ending with `status`. */
function row(workflow: string, questionId: string, status: ResultRow['status'], error?: { code: string; status?: number }): ResultRow {
  return {
    workflow, questionId, question: `question ${questionId}`, prediction: 'Paris', gold: ['Paris'], status,
    ...(error ? { error: `${error.code} failure`, errorCode: error.code, ...(error.status ? { errorStatus: error.status } : {}) } : {}),
    metrics: { em: 1, f1: 1, acc: 1, recall_at_5: 1, full_recall_at_5: 1, ndcg_at_5: 1, all_pass: 1 },
    usage: { ...emptyUsage(), promptTokens: 100, completionTokens: 10, llmCalls: 2 }, evidenceIds: [], latencyMs: 1, trace: `traces/${workflow}-${questionId}.json`,
  };
}

describe('readEval (the studio\'s and the report\'s eval rows)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'multihop-studio-eval-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const JUDGE = 'offline@judge.correctness@4';
  const lines = (items: unknown[]) => items.map((i) => JSON.stringify(i)).join('\n') + '\n';
  const write = (rows: ResultRow[], judged: boolean, extra: { questionIds?: string[]; verdicts?: unknown[] } = {}) => {
    writeFileSync(join(dir, 'results.jsonl'), lines(rows));
    const workflows = Object.fromEntries([...new Set(rows.map((r) => r.workflow))].map((w) => [w, {}]));
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ dataset: 'd', workflows, ...(extra.questionIds ? { question_ids: extra.questionIds } : {}), ...(judged ? { judge: { model: 'offline', key: JUDGE } } : {}) }));
    const verdicts = extra.verdicts ?? rows.filter((r) => r.status !== 'error').map((r) => ({ workflow: r.workflow, questionId: r.questionId, judge: JUDGE, key: judgeKey(r), correct: 1 }));
    writeFileSync(join(dir, 'judgements.jsonl'), lines(verdicts));
  };

  it('scores a failure of the workflow\'s own as the summary does (metrics and verdict wrong, the draft kept beside), and leaves the others as they ran', () => {
    write([
      row('a', 'q1', 'ok'),
      row('a', 'q2', 'error', { code: 'STEP_LIMIT' }),
      row('a', 'q3', 'error', { code: 'PROVIDER', status: 413 }),
      row('a', 'q4', 'error', { code: 'PROVIDER', status: 503 }),
      row('a', 'q5', 'partial'),
    ], true);
    const { rows, verdicts } = readEval(new Roots([dir]), dir);
    const byId = new Map(rows.map((r) => [r.questionId, r]));
    for (const id of ['q2', 'q3']) {
      expect(byId.get(id)).toMatchObject({ scoredAsWrong: true, metrics: { em: 0, f1: 0, acc: 0, recall_at_5: 1 }, draftMetrics: { em: 1, f1: 1 } });
      expect(verdicts[`a\u0000${id}`]).toBe(0);
    }
    // An outage is left out of the figures: no verdict, its row as it was; ok and partial rows untouched.
    expect(byId.get('q4')).not.toHaveProperty('scoredAsWrong');
    expect(verdicts['a\u0000q4']).toBeUndefined();
    for (const id of ['q1', 'q5']) expect(byId.get(id)).toEqual(row('a', id, id === 'q1' ? 'ok' : 'partial'));
    expect(verdicts['a\u0000q1']).toBe(1);
  });

  it('gives no verdict to a failure in an eval that was not judged (EM 0 decides there)', () => {
    write([row('a', 'q1', 'error', { code: 'MODEL_OUTPUT' })], false);
    const { rows, verdicts } = readEval(new Roots([dir]), dir);
    expect(rows[0]).toMatchObject({ scoredAsWrong: true, metrics: { em: 0 } });
    expect(verdicts).toEqual({});
  });

  it("takes the verdict on the row's answer under the judge prompt the summary's judge used, and none where there is none", () => {
    const ok = row('a', 'q1', 'ok');
    const errored = row('a', 'q2', 'ok');
    const older = row('a', 'q3', 'ok');
    const otherAnswer = row('a', 'q4', 'ok');
    write([ok, errored, older, otherAnswer], true, {
      verdicts: [
        { workflow: 'a', questionId: 'q1', judge: JUDGE, key: judgeKey(ok), correct: 1 },
        // An older prompt's yes, then this prompt's judge error: no verdict (the summary leaves it out of Correct).
        { workflow: 'a', questionId: 'q2', judge: JUDGE, key: legacyJudgeKey(errored), correct: 1 },
        { workflow: 'a', questionId: 'q2', judge: JUDGE, key: judgeKey(errored), correct: null },
        // Only an older prompt's verdict: not judged yet under this one.
        { workflow: 'a', questionId: 'q3', judge: JUDGE, key: legacyJudgeKey(older), correct: 1 },
        // A verdict on another answer (the pair ran again since), and another judge's on this one.
        { workflow: 'a', questionId: 'q4', judge: JUDGE, key: judgeKey({ ...otherAnswer, prediction: 'Lyon' }), correct: 1 },
        { workflow: 'a', questionId: 'q4', judge: 'openai:gpt-4o', key: judgeKey(otherAnswer), correct: 1 },
      ],
    });
    expect(readEval(new Roots([dir]), dir).verdicts).toEqual({ 'a\u0000q1': 1 });
    // An eval that was not judged shows no verdict, whatever judgements.jsonl holds from another eval.
    write([ok], false, { verdicts: [{ workflow: 'a', questionId: 'q1', judge: JUDGE, key: judgeKey(ok), correct: 1 }] });
    expect(readEval(new Roots([dir]), dir).verdicts).toEqual({});
  });

  it('keeps the rows the summary is over: the latest line of each pair, of its workflows and questions', () => {
    const failed = { ...row('a', 'q1', 'error', { code: 'PROVIDER', status: 503 }), prediction: '' };
    write([failed, row('a', 'q1', 'ok'), row('a', 'q2', 'ok'), row('b', 'q1', 'ok'), row('a', 'q3', 'ok')], true, { questionIds: ['q1', 'q2'] });
    // b ran here but is not in this summary: rewrite the summary as that eval wrote it.
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ dataset: 'd', workflows: { a: {} }, question_ids: ['q1', 'q2'], judge: { model: 'offline', key: JUDGE } }));
    const { rows } = readEval(new Roots([dir]), dir);
    expect(rows.map((r) => [r.workflow, r.questionId, r.status])).toEqual([['a', 'q1', 'ok'], ['a', 'q2', 'ok']]);
  });
});
