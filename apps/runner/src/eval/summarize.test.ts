import { emptyUsage, type RunResult } from '@multihop/core';
import { hotpotDevSample } from '@multihop/testing';
import type { ResultRow } from './ResultsLog';
import { scoreRun } from './scoreRun';
import { renderSummary, summarize } from './summarize';

const sample = hotpotDevSample(4);

function result(answer: string, evidenceIds: string[], calls: number): RunResult {
  return {
    runId: 'r', workflowId: 'w', questionId: 'q', answer, status: 'ok', evidenceIds, evidence: [], trace: [],
    usage: { ...emptyUsage(), llmCalls: calls, promptTokens: 10 * calls, completionTokens: calls, estimated: true, wallMs: 10 * calls },
  };
}

describe('scoreRun and summarize', () => {
  it('scores answers with the HotpotQA rules and retrieval over the run’s evidence order', () => {
    const { question, passages } = sample[0]!;
    const [g1, g2] = question.supportingIds;
    const others = passages.map((p) => p.id).filter((id) => !question.supportingIds.includes(id));
    // Gold answer "Chief of Protocol"; the prediction adds an article and punctuation only.
    expect(scoreRun(result('the Chief of Protocol.', [others[0]!, g1!, others[1]!], 1), question)).toEqual({
      em: 1, f1: 1, acc: 1, recall_at_5: 1, full_recall_at_5: 0.5, ndcg_at_5: expect.closeTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 6), all_pass: 0,
    });
    expect(scoreRun(result('Shirley Temple', [...others.slice(0, 5), g1!, g2!], 1), question)).toMatchObject({ em: 0, f1: 0, recall_at_5: 0, all_pass: 1 });
    expect(scoreRun(result('x', [], 1), question)).toMatchObject({ recall_at_5: 0, ndcg_at_5: 0, all_pass: 0 });
    expect(scoreRun(result('x', [], 1), { ...question, supportingIds: [] })).toMatchObject({ recall_at_5: null, all_pass: null });
  });

  it('averages the rows of each workflow over the asked questions, with the model named', () => {
    const rows: ResultRow[] = sample.map(({ question }, i) => {
      const run = result(i % 2 === 0 ? question.answer : 'wrong', question.supportingIds, i + 1);
      return {
        workflow: 'w', questionId: question.id, question: question.text, prediction: run.answer, gold: [question.answer], status: 'ok',
        metrics: scoreRun(run, question), usage: run.usage, evidenceIds: run.evidenceIds, latencyMs: run.usage.wallMs, trace: 't',
      };
    });
    const ids = sample.map((s) => s.question.id);
    const summary = summarize(rows, { dataset: 'hotpotqa-dev', setting: 'closed', model: 'offline model', offline: true, workflows: ['w', 'absent'], questionIds: ids });
    const w = summary.workflows['w']!;
    expect(Object.keys(summary.workflows)).toEqual(['w']);
    expect(w).toMatchObject({ n: 4, em: 0.5, all_pass: 1, llm_calls: 2.5, tokens: 27.5, tokens_estimated: true, latency_ms_p50: 20 });
    expect(w.em_ci95[0]).toBeLessThanOrEqual(0.5);
    expect(w.em_ci95[1]).toBeGreaterThanOrEqual(0.5);
    expect(summarize(rows, { dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['w'], questionIds: ids.slice(0, 2) }).workflows['w']!.n).toBe(2);
    expect(renderSummary(summary)).toContain('| w | 4 | 0.500 |');
  });

  it('compares the first workflow with each other one on the same questions, paired', () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = (workflow: string, questionId: string, em: number): ResultRow => ({
      workflow, questionId, question: 'q', prediction: 'p', gold: ['g'], status: 'ok',
      metrics: { em, f1: em, acc: em, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
      usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't',
    });
    const rows = [
      ...ids.map((q) => rowOf('a', q, 1)),
      ...ids.map((q, i) => rowOf('b', q, i === 0 ? 1 : 0)),
      ...ids.map((q) => rowOf('same', q, 1)),
      rowOf('partial', ids[0]!, 0),
    ];
    const summary = summarize(rows, { dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['a', 'b', 'same', 'partial'], questionIds: ids });
    expect(summary.comparisons.map((c) => [c.b, c.n, c.em_diff])).toEqual([['b', 4, 0.75], ['same', 4, 0], ['partial', 1, 1]]);
    const same = summary.comparisons.find((c) => c.b === 'same')!;
    expect(same.p_value).toBe(1);
    expect(same.em_diff_ci95).toEqual([0, 0]);
    const b = summary.comparisons.find((c) => c.b === 'b')!;
    expect(b.em_diff_ci95[0]).toBeLessThanOrEqual(0.75);
    expect(b.em_diff_ci95[1]).toBeGreaterThanOrEqual(0.75);
    expect(renderSummary(summary)).toContain('| a | b | 4 | +0.750 |');
  });
});
