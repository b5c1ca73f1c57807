import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '@multihop/core';
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

  const write = (rows: ResultRow[], judged: boolean) => {
    writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ dataset: 'd', workflows: {}, ...(judged ? { judge: { model: 'offline', key: 'offline@judge.correctness@4' } } : {}) }));
    const verdicts = rows.filter((r) => r.status !== 'error').map((r) => ({ workflow: r.workflow, questionId: r.questionId, judge: 'offline@judge.correctness@4', key: 'k', correct: 1 }));
    writeFileSync(join(dir, 'judgements.jsonl'), judged ? verdicts.map((v) => JSON.stringify(v)).join('\n') + '\n' : '');
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
});
