import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, emptyUsage } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { appendFileSync } from 'node:fs';
import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { JudgeLog, judgeKey, legacyJudgeKey } from './judging';
import type { ResultRow } from './ResultsLog';

// Answers to HotpotQA train questions (5a7decc75542995f4f40230f, 5a77ec115542992a6e59dff7).
const row = (workflow: string, questionId: string, question: string, prediction: string, gold: string[]): ResultRow => ({
  workflow, questionId, question, prediction, gold, status: 'ok',
  metrics: { em: 0, f1: 0, acc: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
  usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't',
});
const haymo = 'What language were books being translated into during the era of Haymo of Faversham?';
const gallu = 'If Gallu is a demon Lilu is what?';
const rows = [
  row('a', 'q1', haymo, 'They were translated into Latin.', ['Latin']),
  row('a', 'q2', gallu, 'a demon', ['a spirit']),
  row('b', 'q1', haymo, '', ['Latin']),
];

describe('JudgeLog', () => {
  it('judges each answer once with the PAR² judge, keeps the verdicts, and judges only new or changed answers on the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-judge-'));
    const log = new JudgeLog(dir, 'offline');
    expect(await log.judgeAll(rows, offlineModel(), { concurrency: 2 })).toBe(3);
    expect(log.verdict(rows[0]!)).toMatchObject({ correct: 1, decision: 'yes', raw: [expect.stringMatching(/^Explanation: .*\nDecision: yes$/)] });
    expect(log.verdict(rows[1]!)).toMatchObject({ correct: 0, decision: 'no' });
    // An empty answer is scored 0 without a call.
    expect(log.verdict(rows[2]!)).toMatchObject({ correct: 0, decision: '(no answer)' });
    expect(log.verdict(rows[2]!)?.usage).toBeUndefined();

    const again = new JudgeLog(dir, 'offline');
    expect(await again.judgeAll(rows, offlineModel(), { concurrency: 2 })).toBe(0);
    const changed = { ...rows[1]!, prediction: 'Lilu is a spirit.' };
    expect(await again.judgeAll([...rows.slice(0, 1), changed], offlineModel(), { concurrency: 1 })).toBe(1);
    expect(again.verdict(changed)).toMatchObject({ correct: 1 });
    // Another judge model does not reuse these verdicts.
    expect(new JudgeLog(dir, 'openai:gpt-4o').verdict(rows[0]!)).toBeUndefined();
    expect(readFileSync(join(dir, 'judgements.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('keeps a reply the judge prompt cannot read as a judge error with its raw text, not as a wrong answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-judge-'));
    const provider = createScriptedProvider({ replies: { judge: ['Correct.', 'It is right.'] } });
    const log = new JudgeLog(dir, 'scripted');
    await log.judgeAll(rows.slice(0, 1), createModel({ provider }), { concurrency: 1 });
    expect(log.verdict(rows[0]!)).toMatchObject({ correct: null, error: expect.stringMatching(/^MODEL_OUTPUT: /), raw: ['Correct.', 'It is right.'] });
    // A reply in the wrong form is the judge's answer, not an outage: it is not asked again.
    expect(await new JudgeLog(dir, 'scripted').judgeAll(rows.slice(0, 1), createModel({ provider }), { concurrency: 1 })).toBe(0);
  });

  // MuSiQue train 2hop__150763_14904: "Who was the first president of the association which
  // published Journal of Psychotherapy Integration?", gold "G. Stanley Hall", alias "Stanley Hall".
  const hall = row('a', '2hop__150763_14904', 'Who was the first president of the association which published Journal of Psychotherapy Integration?', 'Stanley Hall', ['G. Stanley Hall', 'Stanley Hall']);

  it('takes any accepted alias as the gold: the judge is shown the answer and its aliases as alternatives, not one run-together answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-judge-'));
    const log = new JudgeLog(dir, 'offline');
    await log.judgeAll([hall, { ...hall, workflow: 'b', prediction: 'G. Stanley Hall' }, { ...hall, workflow: 'c', prediction: 'William James' }], offlineModel(), { concurrency: 1 });
    expect(log.verdict(hall)).toMatchObject({ correct: 1 });
    expect(log.verdict({ ...hall, workflow: 'b', prediction: 'G. Stanley Hall' })).toMatchObject({ correct: 1 });
    expect(log.verdict({ ...hall, workflow: 'c', prediction: 'William James' })).toMatchObject({ correct: 0 });
    const user = judgeCorrectnessPrompt.render({ question: hall.question, prediction: hall.prediction, gold: hall.gold }).at(-1)?.content ?? '';
    expect(user).toContain('Ground-truth answer: G. Stanley Hall (also accepted: Stanley Hall)');
  });

  it('does not reuse a verdict given under another version of the judge prompt: the answer is judged again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-judge-'));
    // As an eval judged under version 3 (which ran the aliases together) left it: key without the prompt's version.
    const oldKey = legacyJudgeKey(hall);
    appendFileSync(join(dir, 'judgements.jsonl'), `${JSON.stringify({ workflow: 'a', questionId: hall.questionId, judge: 'offline', key: oldKey, correct: 0, decision: 'no' })}\n`);
    expect(judgeKey(hall)).not.toBe(oldKey);
    const log = new JudgeLog(dir, 'offline');
    expect(log.verdict(hall)).toBeUndefined();
    expect(await log.judgeAll([hall], offlineModel(), { concurrency: 1 })).toBe(1);
    expect(log.verdict(hall)).toMatchObject({ correct: 1 });
  });
});
