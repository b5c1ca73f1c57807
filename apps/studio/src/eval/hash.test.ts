import { hashFor, readLocation } from './hash';
import { filterQuestions, groupQuestions } from './questions';
import type { EvalData, EvalRow } from './types';

describe('the eval page address', () => {
  it('reads the directory and the question from #/evals?dir=&q=', () => {
    expect(readLocation('#/evals?dir=evals%2Fhotpot&q=5a8c')).toEqual({ dir: 'evals/hotpot', question: '5a8c' });
    expect(readLocation('#/evals')).toEqual({});
    expect(readLocation('')).toEqual({});
  });

  it('writes them back, keeping the route and parameters that are not the page’s', () => {
    expect(hashFor('#/evals', { dir: '/tmp/a b' })).toBe('#/evals?dir=%2Ftmp%2Fa+b');
    expect(hashFor('#/evals?dir=x&q=1&keep=yes', { dir: 'y' })).toBe('#/evals?keep=yes&dir=y');
    expect(hashFor('', { question: 'q1' })).toBe('#/evals?q=q1');
    expect(readLocation(hashFor('#/evals', { dir: 'evals/a&b=c', question: 'id#1' }))).toEqual({ dir: 'evals/a&b=c', question: 'id#1' });
  });
});

describe('the questions table', () => {
  const row = (workflow: string, questionId: string, prediction: string, em: number): EvalRow => ({
    workflow,
    questionId,
    question: `question ${questionId}`,
    prediction,
    gold: ['Paris'],
    status: 'ok',
    metrics: { em, f1: em, acc: em, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
    usage: { llmCalls: 1, promptTokens: 10, completionTokens: 2, estimated: false, byRole: {}, retrievalCalls: 1, wallMs: 5 },
    latencyMs: 5,
    evidenceIds: [],
    trace: `traces/${workflow}/${questionId}.json`,
  });
  const rows = [row('a', 'q1', 'Paris', 1), row('b', 'q1', 'Lyon', 0), row('a', 'q2', 'Paris', 1), row('b', 'q2', 'Paris', 1), row('a', 'q3', 'Nice', 0)];
  const data = (verdicts: Record<string, 0 | 1> = {}): EvalData =>
    ({ dir: 'd', rows, verdicts, summary: { workflows: {} } }) as unknown as EvalData;

  it('groups rows by question in first-seen order', () => {
    const groups = groupQuestions(rows);
    expect(groups.map((g) => g.id)).toEqual(['q1', 'q2', 'q3']);
    expect([...groups[0]!.rows.keys()]).toEqual(['a', 'b']);
  });

  it('filters by text over question, gold and answers, and by outcome', () => {
    const groups = groupQuestions(rows);
    expect(filterQuestions(data(), groups, 'lyon', 'all').map((g) => g.id)).toEqual(['q1']);
    expect(filterQuestions(data(), groups, '', 'split').map((g) => g.id)).toEqual(['q1']);
    expect(filterQuestions(data(), groups, '', 'all-right').map((g) => g.id)).toEqual(['q2']);
    expect(filterQuestions(data(), groups, '', 'none-right').map((g) => g.id)).toEqual(['q3']);
  });

  it('finds an answer by its words with or without accents, in either Unicode form', () => {
    const accented = [row('a', 'q1', 'Zürich', 1), row('a', 'q2', 'Malmo\u0308', 0), row('a', 'q3', 'Nice', 0)];
    const groups = groupQuestions(accented);
    const of = (text: string) => filterQuestions({ ...data(), rows: accented } as EvalData, groups, text, 'all').map((g) => g.id);
    expect(of('zurich')).toEqual(['q1']);
    expect(of('ZÜRICH')).toEqual(['q1']);
    expect(of('malmö')).toEqual(['q2']);
  });

  it('in a judged eval counts the judge’s verdict, and an answer without one (a judge error, not judged yet) as not right, whatever its EM', () => {
    const groups = groupQuestions(rows);
    // A judge, and no correctness figure (the judging was stopped): the verdicts still decide.
    const judged = (verdicts: Record<string, 0 | 1>): EvalData => ({ ...data(verdicts), summary: { judge: { model: 'offline' }, workflows: { a: { correctness: null }, b: { correctness: null } } } }) as unknown as EvalData;
    const all = judged({ 'a\u0000q1': 1, 'b\u0000q1': 1, 'a\u0000q2': 0, 'b\u0000q2': 1, 'a\u0000q3': 0 });
    expect(filterQuestions(all, groups, '', 'all-right').map((g) => g.id)).toEqual(['q1']);
    expect(filterQuestions(all, groups, '', 'split').map((g) => g.id)).toEqual(['q2']);
    // a's EM-1 answer to q1 has no verdict: not right, so q1 is split, not all right.
    const partly = judged({ 'b\u0000q1': 1, 'a\u0000q2': 0, 'b\u0000q2': 1 });
    expect(filterQuestions(partly, groups, '', 'all-right').map((g) => g.id)).toEqual([]);
    expect(filterQuestions(partly, groups, '', 'split').map((g) => g.id)).toEqual(['q1', 'q2']);
  });
});
