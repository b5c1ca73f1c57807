import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '@multihop/core';
import { judgeKey, legacyJudgeKey } from './judging';
import { readEvalOutcomes } from './outcomes';
import type { ResultRow } from './ResultsLog';

// MuSiQue train 2hop__150763_14904: gold "G. Stanley Hall", alias "Stanley Hall".
const row = (workflow: string, extra: Partial<ResultRow> = {}): ResultRow => ({
  workflow, questionId: '2hop__150763_14904', question: 'Who was the first president of the association which published Journal of Psychotherapy Integration?',
  prediction: 'Stanley Hall', gold: ['G. Stanley Hall', 'Stanley Hall'], status: 'ok',
  metrics: { em: 1, f1: 1, acc: 1, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
  usage: { ...emptyUsage(), promptTokens: 40 }, evidenceIds: [], latencyMs: 1, trace: 't', ...extra,
});

function evalDir(rows: ResultRow[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-outcomes-'));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ dataset: 'musique-train', setting: 'open', model: 'offline', workflows: rows.map((r) => r.workflow) }));
  writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
}

describe('readEvalOutcomes', () => {
  it('refuses an eval judged with an earlier judge prompt (saying how to judge it again) rather than read it as unjudged', () => {
    const dir = evalDir([row('a')]);
    appendFileSync(join(dir, 'judgements.jsonl'), `${JSON.stringify({ workflow: 'a', questionId: row('a').questionId, judge: 'offline', key: legacyJudgeKey(row('a')), correct: 0 })}\n`);
    expect(() => readEvalOutcomes(dir)).toThrow(/1 of its answers were judged with an earlier version of the judge prompt .*re-run the eval that wrote it with the same --out/);
    // Judged again (the re-run appends this prompt's verdicts): read as they are.
    appendFileSync(join(dir, 'judgements.jsonl'), `${JSON.stringify({ workflow: 'a', questionId: row('a').questionId, judge: 'offline', key: judgeKey(row('a')), correct: 1 })}\n`);
    expect(readEvalOutcomes(dir).outcomes).toMatchObject([{ workflow: 'a', correct: 1, em: 1 }]);
  });

  it("reads a failure of the workflow's own as a wrong answer, whatever its draft scored, and an outage as one to leave out", () => {
    const dir = evalDir([
      row('own', { status: 'error', errorCode: 'MODEL_OUTPUT', error: 'MODEL_OUTPUT: unreadable' }),
      row('down', { status: 'error', errorCode: 'PROVIDER', error: 'PROVIDER: 503' }),
    ]);
    expect(readEvalOutcomes(dir).outcomes).toMatchObject([
      { workflow: 'own', correct: 0, em: 0, f1: 0, tokens: 40, ownFailure: true },
      { workflow: 'down', status: 'error' },
    ]);
    expect(readEvalOutcomes(dir).outcomes[1]).not.toHaveProperty('ownFailure');
  });

  it('names the file, the row and the field of a verdict or an outcome that is not one', () => {
    const dir = evalDir([row('a')]);
    appendFileSync(join(dir, 'judgements.jsonl'), `${JSON.stringify({ workflow: 'a', questionId: row('a').questionId, judge: 'offline', key: judgeKey(row('a')), correct: 'no' })}\n`);
    expect(() => readEvalOutcomes(dir)).toThrow(`${join(dir, 'judgements.jsonl')}: field \`correct\` of the verdict on a, question 2hop__150763_14904: "no", expected 0, 1 or null`);
    const bad = evalDir([row('a', { metrics: { ...row('a').metrics, f1: 1.7 } })]);
    expect(() => readEvalOutcomes(bad)).toThrow(`${join(bad, 'results.jsonl')}: a, question 2hop__150763_14904: field \`metrics.f1\`: 1.7, expected a number in [0, 1]`);
  });
});
