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

/** A scored run with its F1 (EM 1 when F1 is 1) and its tokens, for the oracle and the token comparisons. */
function pricedRow(workflow: string, questionId: string, f1: number, tokens: number): ResultRow {
  return {
    workflow, questionId, question: 'q', prediction: 'p', gold: ['g'], status: 'ok',
    metrics: { em: f1 === 1 ? 1 : 0, f1, acc: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
    usage: { ...emptyUsage(), promptTokens: tokens, llmCalls: 1 }, evidenceIds: [], latencyMs: 1, trace: 't',
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
    // A closed-book workflow (searches: false) has no retrieval scores, whatever it returned.
    expect(scoreRun(result('x', [], 1), question, { searches: false })).toMatchObject({ em: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null });
    expect(scoreRun(result('x', [], 1), question, { searches: true })).toMatchObject({ recall_at_5: 0 });
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
    // The failed column (none here); a workflow asked for with no runs at all makes the summary incomplete.
    expect(renderSummary(summary)).toContain('| w | 4 | 0 | — | — | 0.500 |');
    expect(summary.incomplete).toEqual({ stopped: false, questions_run: 4, questions_complete: 0, runs: { w: 4, absent: 0 } });
  });

  it('scores a workflow\'s own failures as wrong, leaves failures a re-run retries out of every metric, counts them by code, and marks a stopped evaluation incomplete', () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = (workflow: string, questionId: string, em: number, errorCode?: string): ResultRow => ({
      workflow, questionId, question: 'q', prediction: errorCode ? '' : 'p', gold: ['g'], status: errorCode ? 'error' : 'ok',
      ...(errorCode ? { error: `${errorCode}: it failed`, errorCode } : {}),
      metrics: { em, f1: em, acc: em, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
      usage: { ...emptyUsage(), promptTokens: errorCode ? 7 : 50 }, evidenceIds: [], latencyMs: 1, trace: 't',
    });
    const rows = [
      rowOf('a', ids[0]!, 1), rowOf('a', ids[1]!, 1), rowOf('a', ids[2]!, 0, 'PROVIDER'), rowOf('a', ids[3]!, 1, 'MODEL_OUTPUT'),
      rowOf('b', ids[0]!, 0), rowOf('b', ids[1]!, 1), rowOf('b', ids[2]!, 0), rowOf('b', ids[3]!, 0, 'ENVIRONMENT'),
      ...ids.map((q) => rowOf('down', q, 0, 'PROVIDER')),
    ];
    const summary = summarize(rows, { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b', 'down'], questionIds: ids });
    // a's EM is over its two answered runs (1, 1) and its MODEL_OUTPUT failure, its own, scored as
    // wrong although its draft scored EM 1 (3 runs, EM 2/3, its 7 tokens in its mean); its PROVIDER
    // failure, an outage, is left out.
    expect(summary.workflows['a']).toMatchObject({ n: 3, failed: 2, failed_codes: { MODEL_OUTPUT: 1, PROVIDER: 1 }, em: 2 / 3, tokens: (50 + 50 + 7) / 3, status: { ok: 2, partial: 0, error: 2 } });
    expect(summary.workflows['b']).toMatchObject({ n: 3, failed: 1, failed_codes: { ENVIRONMENT: 1 }, em: 1 / 3 });
    // A workflow whose every run failed for a passing reason has no figures at all, and no comparison is made with it.
    expect(summary.workflows['down']).toBeUndefined();
    // The retried runs' tokens (7 each) are in no workflow's figures: the summary counts them apart.
    expect(summary.failed).toEqual({ runs: 7, retryable: 6, scored_as_wrong: 1, codes: { PROVIDER: 5, ENVIRONMENT: 1, MODEL_OUTPUT: 1 }, workflows: { down: 4, a: 2, b: 1 }, tokens: 42 });
    // Compared on the questions both scored: ids[0] and ids[1].
    expect(summary.comparisons.find((c) => c.metric === 'em')).toMatchObject({ a: 'a', b: 'b', n: 2, diff: 0.5 });
    expect(summary.comparisons.every((c) => c.b !== 'down')).toBe(true);
    expect(summary.incomplete).toBeUndefined();
    expect(renderSummary(summary)).not.toContain('From the response cache');
    // Calls answered from the response cache are counted and said: their latency is a cache read.
    const cachedRow = (q: string): ResultRow => ({ ...rowOf('c', q, 1), usage: { ...emptyUsage(), llmCalls: 2, byRole: { writer: { calls: 2, promptTokens: 40, completionTokens: 10, estimated: false, cachedCalls: 1 } } } });
    const cachedSummary = summarize(ids.slice(0, 2).map(cachedRow), { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['c'], questionIds: ids.slice(0, 2) });
    expect(cachedSummary.workflows['c']).toMatchObject({ cached_calls: 2, llm_calls: 2 });
    expect(renderSummary(cachedSummary)).toContain('From the response cache (--cache): c 2 of 4 model calls.');
    // No judge, no correctness: not 0.000 from the failure scored as wrong.
    expect(Object.values(summary.workflows).map((w) => w.correctness)).toEqual([null, null]);
    expect(summary.comparisons.find((c) => c.metric === 'correctness')).toBeUndefined();
    const md = renderSummary(summary);
    expect(md).toContain('| a | 3 | 2 (MODEL_OUTPUT 1, PROVIDER 1) |');
    expect(md).toContain('| down | 0 | 4 (every run failed) |');
    expect(md).toContain("7 runs failed (PROVIDER 5, ENVIRONMENT 1, MODEL_OUTPUT 1). 1 failed on its workflow's own account");
    expect(md).toContain('and scores as a wrong answer in every figure, with the tokens it spent.');
    expect(md).toContain('6 are left out of every figure here (n counts the runs scored) and spent 42 tokens (prompt + completion), counted in no figure above; 6 of them may pass on a re-run of the same command');
    // Judged, the workflow's own failure is judged wrong without a verdict; the outage has none.
    const judged = summarize(rows, {
      dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts: new Map(rows.filter((r) => r.status === 'ok').map((r) => [`${r.workflow}\u0000${r.questionId}`, { correct: r.metrics.em as 0 | 1 }])) },
    });
    expect(judged.workflows['a']).toMatchObject({ correctness: 2 / 3, judged: 3 });
    // How correctness was measured names the judge that measured it: the offline judge's rule, not the LLM judge's.
    expect(renderSummary(judged)).toContain('Correct: the offline judge’s lexical verdict (the gold contained in the answer, or token F1 ≥ 0.6), standing in for PAR² A.2’s LLM judge, mean');
    expect(renderSummary({ ...judged, judge: { ...judged.judge!, offline: false } })).toContain('Correct: PAR² A.2’s LLM judge (Explanation:/Decision: reply');
    expect(renderSummary(judged)).toContain('| workflow | n | failed | Correct (offline judge) | Correct 95% CI |');
    expect(renderSummary({ ...judged, judge: { ...judged.judge!, offline: false } })).toContain('| workflow | n | failed | Correct | Correct 95% CI |');
    // Judging stopped before a's answers had verdicts: a has no correctness (its failure alone would
    // read 0.000), b, judged whole, has its own; the comparison on correctness waits for a's too.
    const partly = summarize(rows, {
      dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true, unjudged: 2,
      questions: new Map(ids.map((q) => [q, { hops: 2, type: 'bridge' }])),
      judge: { model: 'offline', label: 'offline', offline: true, verdicts: new Map(rows.filter((r) => r.status === 'ok' && r.workflow === 'b').map((r) => [`${r.workflow}\u0000${r.questionId}`, { correct: r.metrics.em as 0 | 1 }])) },
    });
    expect(partly.workflows['a']).toMatchObject({ correctness: null, correctness_ci95: null, judged: 0 });
    expect(partly.workflows['b']).toMatchObject({ correctness: 1 / 3, judged: 3 });
    expect(partly.comparisons.find((c) => c.metric === 'correctness')).toBeUndefined();
    // The breakdowns blank it the same way (not a mean over its failure and none of its answers).
    expect(partly.breakdown.type.map((c) => [c.workflow, c.correctness])).toEqual([['a', null], ['b', 1 / 3]]);
    expect(partly.breakdown.hops.map((c) => [c.workflow, c.correctness])).toEqual([['a', null], ['b', 1 / 3]]);
    expect(renderSummary(partly)).toContain('a workflow with answers not yet judged has no correctness until they are');
    // Stopped while the pairs ran: nothing was judged, and the paragraph says why correctness is blank.
    const early = summarize(rows.filter((r) => r.questionId === ids[0]), {
      dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts: new Map() },
    });
    expect(early.workflows['a']!.correctness).toBeNull();
    expect(renderSummary(early)).toContain('The figures below are over the runs that finished, but for correctness: the judge runs once every pair has run, so a workflow whose answers are not yet judged has none; re-run');
    // A failure that is not the workflow's own (a damaged checkpoint store) is left out, not scored.
    const store = summarize([rowOf('c', ids[0]!, 1), rowOf('c', ids[1]!, 1, 'CHECKPOINT')], { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['c'], questionIds: ids });
    expect(store.workflows['c']).toMatchObject({ n: 1, failed: 1, em: 1 });
    expect(store.failed).toMatchObject({ runs: 1, retryable: 0, tokens: 7 });
    expect(store.failed.scored_as_wrong).toBeUndefined();
    expect(renderSummary(store)).toContain('counted in no figure above; a re-run of the same command does not run it again.');

    const stopped = summarize(rows.filter((r) => r.questionId === ids[0]), { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true });
    expect(stopped.incomplete).toEqual({ stopped: true, questions_run: 1, questions_complete: 1, runs: { a: 1, b: 1 } });
    expect(renderSummary(stopped)).toMatch(/^# d \(open setting\), INCOMPLETE: 1 of 4 questions ran\n\n\*\*Incomplete\*\*: stopped \(Ctrl-C\) before every pair ran; runs per workflow: a 1, b 1 \(of 4 each\)/);
    // Stopped with a second question begun by one workflow only: it is not counted as ran.
    const begun = summarize(rows.filter((r) => r.questionId === ids[0] || (r.questionId === ids[1] && r.workflow === 'a')), { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true });
    expect(begun.incomplete).toMatchObject({ questions_run: 2, questions_complete: 1 });
    expect(renderSummary(begun)).toMatch(/^# d \(open setting\), INCOMPLETE: 1 of 4 questions ran with every workflow \(2 begun\)\n/);

    // Ctrl-C while judging: every pair ran, so the summary says the judging (not the runs) was cut short.
    const judging = summarize(rows, { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true, unjudged: 3 });
    expect(judging.incomplete).toEqual({ stopped: true, questions_run: 4, runs: { a: 4, b: 4 }, judging: { unjudged: 3 } });
    const judgingMd = renderSummary(judging);
    expect(judgingMd).toMatch(/^# d \(open setting\), 4 questions, INCOMPLETE: judging interrupted\n\n\*\*Incomplete\*\*: every run finished, but the judging was stopped \(Ctrl-C\) with 3 answers not yet judged/);
    expect(judgingMd).toContain('Re-run the same command to judge the rest: no pair runs again.');
    expect(judgingMd).not.toContain('before every pair ran');
    // Stopped after the judging had finished: nothing is missing.
    expect(summarize(rows, { dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, stopped: true, unjudged: 0 }).incomplete).toBeUndefined();
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
    expect(summary.comparisons.filter((c) => c.metric !== 'tokens').map((c) => [c.metric, c.b, c.n, c.diff])).toEqual([['em', 'b', 4, 0.75], ['em', 'same', 4, 0], ['em', 'partial', 1, 1]]);
    const same = summary.comparisons.find((c) => c.b === 'same')!;
    expect(same.p_value).toBe(1);
    expect(same.diff_ci95).toEqual([0, 0]);
    const b = summary.comparisons.find((c) => c.b === 'b')!;
    expect(b.diff_ci95[0]).toBeLessThanOrEqual(0.75);
    expect(b.diff_ci95[1]).toBeGreaterThanOrEqual(0.75);
    expect(renderSummary(summary)).toContain('| EM | a | b | 4 | +0.750 |');
  });

  it('pairs the tokens too, and adds the oracle row when a router is evaluated beside its candidates', () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = pricedRow;
    // cheap is right on the first two questions, dear on the last three; the router picks cheap on all but the last.
    const rows = [
      ...ids.map((q, i) => rowOf('router', q, i === 3 ? 1 : i < 2 ? 1 : 0, i === 3 ? 500 : 100)),
      ...ids.map((q, i) => rowOf('cheap', q, i < 2 ? 1 : 0.5, 100)),
      ...ids.map((q, i) => rowOf('dear', q, i >= 1 ? 1 : 0, 500)),
    ];
    const verdicts = new Map(rows.map((r) => [`${r.workflow}\u0000${r.questionId}`, { correct: (r.metrics.f1 === 1 ? 1 : 0) as 0 | 1 }]));
    const summary = summarize(rows, {
      dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['router', 'cheap', 'dear'], questionIds: ids,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts }, router: { id: 'router', candidates: ['cheap', 'dear', 'not-run'] },
    });
    const tokens = summary.comparisons.filter((c) => c.metric === 'tokens').map((c) => [c.b, c.diff]);
    expect(tokens).toEqual([['cheap', 100], ['dear', -300]]);
    // Hindsight: question 0 and 1 cheap (right and cheaper), 2 and 3 dear (the only one right).
    expect(summary.oracle).toEqual({
      router: 'router', candidates: ['cheap', 'dear'], missing: ['not-run'], n: 4, correctness: 1, em: 1, f1: 1, tokens: 300, llm_calls: 1, choices: { cheap: 2, dear: 2 },
    });
    const md = renderSummary(summary);
    expect(md).toContain('| oracle | 4 | 1.000 | 1.000 | 1.000 | 1.0 | 300 | cheap 2, dear 2 |');
    expect(md).toContain('Not run here, so not chosen: not-run.');
    expect(md).toContain('| tokens/q | router | dear | 4 | -300 |');
    expect(summarize(rows, { dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['cheap', 'dear'], questionIds: ids }).oracle).toBeUndefined();
  });

  it("counts every question in the oracle's correctness, preferring a judged run to one the judge did not reach", () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = pricedRow;
    // cheap is right on questions 1–3; on question 0 its answer (F1 0.6) was not judged, and dear's (F1 0) was judged wrong.
    const rows = [...ids.map((q, i) => rowOf('router', q, i === 0 ? 0.6 : 1, 100)), ...ids.map((q, i) => rowOf('cheap', q, i === 0 ? 0.6 : 1, 100)), ...ids.map((q) => rowOf('dear', q, 0, 500))];
    const verdicts = new Map(rows.filter((r) => !(r.workflow !== 'dear' && r.questionId === ids[0])).map((r) => [`${r.workflow}\u0000${r.questionId}`, { correct: (r.metrics.f1 === 1 ? 1 : 0) as 0 | 1 }]));
    const summary = summarize(rows, {
      dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['router', 'cheap', 'dear'], questionIds: ids,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts }, router: { id: 'router', candidates: ['cheap', 'dear'] },
    });
    // Question 0 counts as wrong (dear's judged run), not left out: 3 of 4, not 3 of 3.
    expect(summary.oracle).toMatchObject({ n: 4, correctness: 0.75, choices: { cheap: 3, dear: 1 } });
  });

  it('replays a router with a policy at each λ from its candidates’ runs, against the best single candidate within the same tokens', () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = (workflow: string, questionId: string, right: boolean, tokens: number): ResultRow => ({
      workflow, questionId, question: 'q', prediction: 'p', gold: ['g'], status: 'ok',
      metrics: { em: right ? 1 : 0, f1: right ? 1 : 0, acc: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
      usage: { ...emptyUsage(), promptTokens: tokens, llmCalls: 1 }, evidenceIds: [], latencyMs: 1, trace: 't',
    });
    // cheap (100 tokens) is right on questions 0 and 1, dear (900) on 1, 2 and 3.
    const rows = [
      ...ids.map((q, i) => rowOf('cheap', q, i < 2, 100)),
      ...ids.map((q, i) => rowOf('dear', q, i >= 1, 900)),
      ...ids.map((q, i) => rowOf('router', q, true, i < 2 ? 100 : 900)),
    ];
    // The router expects cheap to be right on 0 and 1 only, dear everywhere at 0.8.
    const predictions = new Map(ids.map((q, i) => [q, [{ workflow: 'cheap', quality: i < 2 ? 0.9 : 0.1, tokens: 100 }, { workflow: 'dear', quality: 0.8, tokens: 900 }]]));
    const context = { dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['router', 'cheap', 'dear'], questionIds: ids };
    const summary = summarize(rows, { ...context, router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0, 0.1, 1], predictions } } });
    // Its settings read as what they stand for: λ −1 is the file's λ, "" the shipped file.
    const withSettings = summarize(rows, { ...context, settings: { router: { file: '', lambda: -1 } }, router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0, 0.1, 1], predictions } } });
    expect(renderSummary(withSettings)).toContain(`- router: file="" (the router file the package ships), lambda=-1 (the router file's λ: 0.1)`);
    // Without dear's runs there is nothing to replay a choice of dear from: the curve is left out, saying why.
    const without = summarize(rows.filter((r) => r.workflow !== 'dear'), { ...context, workflows: ['router', 'cheap'], router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0, 0.1, 1], predictions } } });
    expect(without.router_curve).toBeUndefined();
    // With no curve to state the λ, its settings still read as what they stand for, not as bare −1 and "".
    const bare = summarize(rows.filter((r) => r.workflow !== 'dear'), { ...context, workflows: ['router', 'cheap'], settings: { router: { lambda: -1, pool: '', candidates: '' } }, router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0, 0.1, 1], predictions } } });
    expect(renderSummary(bare)).toContain(`- router: lambda=-1 (the router file's λ), pool="" (as the router file says), candidates="" (every candidate in the router file installed here)`);
    expect(renderSummary(without)).toContain("The router across λ is left out: it replays router's choice at each λ from its candidates' own runs, and dear did not run in this eval (run it beside the router in one eval: eval --workflows router,cheap,dear).");
    // With none of its candidates run, there is no oracle to show (not a row of zeros over no question).
    const alone = summarize(rows.filter((r) => r.workflow === 'router'), { ...context, workflows: ['router'], router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0, 0.1, 1], predictions } } });
    expect(alone.oracle).toBeUndefined();
    expect(renderSummary(alone)).not.toContain('## Oracle');
    const curve = summary.router_curve!;
    expect(curve).toMatchObject({ router: 'router', lambda: 0.1, measure: 'em', n: 4, best_single: { workflow: 'dear', quality: 0.75, tokens: 900 } });
    // λ 0 and 0.1: cheap where it is expected right (0.9 − 0.01 > 0.8 − 0.09), dear elsewhere: all four right at 500 tokens.
    // λ 1: 0.1 − 0.1 = 0 beats 0.8 − 0.9 on every question, so cheap everywhere.
    expect(curve.points.map((p) => [p.lambda, p.quality, p.tokens, p.choices, p.routed_with, p.meets_best_single])).toEqual([
      [0, 1, 500, { cheap: 2, dear: 2 }, false, true],
      [0.1, 1, 500, { cheap: 2, dear: 2 }, true, true],
      [1, 0.5, 100, { cheap: 4 }, false, false],
    ]);
    // At 500 tokens the best single within them is cheap (0.5): the router is +0.5 over it, paired.
    expect(curve.points[1]!.best_within).toEqual({ workflow: 'cheap', quality: 0.5, tokens: 100 });
    expect(curve.points[1]!.vs_best_within!.diff).toBeCloseTo(0.5, 9);
    // The router's own runs, held against the replay at its λ: the same run on all four.
    expect(curve.own).toEqual({ n: 4, quality: 1, tokens: 500, same_run: 4 });
    const md = renderSummary(summary);
    expect(md).toContain("## router across λ, replayed from the candidates' runs");
    expect(md).toContain('| 0.1 ★ | 1.000 | 500 | cheap 2, dear 2 | cheap (100) | 0.500 | +0.500 |');
    expect(md).toContain('| 1 | 0.500 | 100 | cheap 4 | cheap (100) | 0.500 | +0.000 | [0.000, 0.000] | 1.000 | no |');
    expect(md).toContain('Its own runs on these questions: EM 1.000 at 500 tokens/q; the replay at ★ chose the run it made on all 4.');
    // No curve when a candidate did not run here, or without a policy.
    const withoutDear = rows.filter((r) => r.workflow !== 'dear');
    expect(summarize(withoutDear, { ...context, router: { id: 'router', candidates: ['cheap', 'dear'], policy: { lambda: 0.1, lambdas: [0], predictions } } }).router_curve).toBeUndefined();
    expect(summarize(rows, { ...context, router: { id: 'router', candidates: ['cheap', 'dear'] } }).router_curve).toBeUndefined();
  });

  it('replays on the questions where every candidate ran, judged, adds the λ it ran with, and says when the replay is not what it did', () => {
    const ids = sample.map((s) => s.question.id);
    const rowOf = (workflow: string, questionId: string, answer: string, tokens: number, status: ResultRow['status'] = 'ok'): ResultRow => ({
      workflow, questionId, question: 'q', prediction: answer, gold: ['g'], status,
      ...(status === 'error' ? { error: 'PROVIDER: down', errorCode: 'PROVIDER' } : {}),
      metrics: { em: 0, f1: 0, acc: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
      usage: { ...emptyUsage(), promptTokens: tokens, llmCalls: 1 }, evidenceIds: [], latencyMs: 1, trace: 't',
    });
    // a and b cost the same and are predicted the same: a tie, which goes to the earlier candidate (a).
    // b's endpoint was down on the last question, so the curve leaves it out (n = 3).
    const rows = [
      ...ids.map((q, i) => rowOf('a', q, i === 0 ? 'right' : 'wrong', 200)),
      ...ids.map((q, i) => rowOf('b', q, i === 0 ? 'wrong' : 'right', 200, i === 3 ? 'error' : 'ok')),
      // The router's own runs: a's answer on 0 and 1, but b's on 2 (what a changed router file would do).
      ...ids.map((q, i) => rowOf('router', q, i === 0 ? 'right' : i === 2 ? 'right' : 'wrong', 200)),
    ];
    const verdicts = new Map(rows.map((r) => [`${r.workflow}\u0000${r.questionId}`, { correct: (r.prediction === 'right' ? 1 : 0) as 0 | 1 }]));
    const predictions = new Map(ids.map((q) => [q, [{ workflow: 'a', quality: 0.5, tokens: 200 }, { workflow: 'b', quality: 0.5, tokens: 200 }]]));
    const summary = summarize(rows, {
      dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['router', 'a', 'b'], questionIds: ids,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts },
      router: { id: 'router', candidates: ['a', 'b'], policy: { lambda: 0.05, lambdas: [0, 1], predictions } },
    });
    const curve = summary.router_curve!;
    expect(curve).toMatchObject({ measure: 'correctness', n: 3, best_single: { workflow: 'b', quality: 2 / 3, tokens: 200 } });
    // The λ it ran with joins the list; every point chooses a (the tie) on all three questions.
    expect(curve.points.map((p) => [p.lambda, p.routed_with, p.choices, p.quality])).toEqual([
      [0, false, { a: 3 }, 1 / 3],
      [0.05, true, { a: 3 }, 1 / 3],
      [1, false, { a: 3 }, 1 / 3],
    ]);
    // Its own runs on those three: right on 0 and 2; the replay chose its run on 0 and 1 only.
    expect(curve.own).toEqual({ n: 3, quality: 2 / 3, tokens: 200, same_run: 2 });
    expect(renderSummary(summary)).toContain('Its own runs on these questions: Correct (offline judge) 0.667 at 200 tokens/q; **the replay at ★ chose the run it made on only 2 of 3**');
    expect(renderSummary(summary)).toContain('| λ | Correct (offline judge) | tokens/q |');
    expect(renderSummary(summary)).toContain('| row | n | Correct (offline judge) | EM |');

    // A router that routes among fewer than its candidates (a Pareto-front pool: b alone) predicts
    // only those; with no finite value the replay takes the first of them, as the graph does, not a.
    const unsure = new Map(ids.map((q) => [q, [{ workflow: 'b', quality: Number.NaN, tokens: 200 }]]));
    const pooled = summarize(rows, {
      dataset: 'd', setting: 'closed', model: 'm', offline: true, workflows: ['router', 'a', 'b'], questionIds: ids,
      judge: { model: 'offline', label: 'offline', offline: true, verdicts },
      router: { id: 'router', candidates: ['a', 'b'], policy: { lambda: 0.05, lambdas: [0, 1], predictions: unsure } },
    });
    expect(pooled.router_curve!.points.map((p) => p.choices)).toEqual([{ b: 3 }, { b: 3 }, { b: 3 }]);
    expect(pooled.router_curve!.best_single.workflow).toBe('b');
    expect(pooled.router_curve!.routes_among).toEqual(['b']);
    expect(renderSummary(pooled)).toContain('It routes among 1 of its candidates: b (its policy predicts only these)');
    expect(summary.router_curve!.routes_among).toBeUndefined();
  });

  it('adds judge correctness with its interval, paired comparisons on it, stop reasons and the hop/type breakdown', () => {
    const ids = ['q1', 'q2', 'q3', 'q4'];
    const rowOf = (workflow: string, questionId: string, em: number, stopReason?: string): ResultRow => ({
      workflow, questionId, question: 'q', prediction: 'p', gold: ['g'], status: stopReason ? 'partial' : 'ok', ...(stopReason ? { stopReason } : {}),
      metrics: { em, f1: em, acc: em, recall_at_5: em, full_recall_at_5: em, ndcg_at_5: em, all_pass: em },
      usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't',
    });
    const rows = [
      rowOf('a', 'q1', 1), rowOf('a', 'q2', 0), rowOf('a', 'q3', 1), rowOf('a', 'q4', 0, 'no-progress'),
      rowOf('b', 'q1', 0), rowOf('b', 'q2', 0), rowOf('b', 'q3', 0, 'no-progress'), rowOf('b', 'q4', 0, 'hop-budget'),
    ];
    // The judge finds a's answers to q1, q2, q3 correct (q2 despite EM 0) and could not read its reply on q4.
    const verdicts = new Map<string, { correct: 0 | 1 | null; promptTokens?: number; completionTokens?: number; estimated?: boolean }>([
      ['a\u0000q1', { correct: 1, promptTokens: 100, completionTokens: 10, estimated: true }],
      ['a\u0000q2', { correct: 1, promptTokens: 100, completionTokens: 10, estimated: true }],
      ['a\u0000q3', { correct: 1, promptTokens: 100, completionTokens: 10, estimated: true }],
      ['a\u0000q4', { correct: null, promptTokens: 100, completionTokens: 30, estimated: true }],
      ['b\u0000q1', { correct: 0 }], ['b\u0000q2', { correct: 1 }], ['b\u0000q3', { correct: 0 }], ['b\u0000q4', { correct: 0 }],
    ]);
    const questions = new Map([
      ['q1', { hops: 2, type: 'bridge' }], ['q2', { hops: 2, type: 'comparison' }], ['q3', { hops: 3, type: 'bridge' }], ['q4', { hops: 4 }],
    ]);
    const summary = summarize(rows, {
      dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['a', 'b'], questionIds: ids, questions,
      judge: { model: 'offline', label: 'offline judge', offline: true, verdicts },
      corpus: { setting: 'open', name: 'd', passages: 120 },
      settings: { a: { hopBudget: 5 }, b: {} },
    });
    expect(summary.workflows['a']).toMatchObject({ correctness: 1, judged: 3, judge_errors: 1, em: 0.5, stop_reasons: { 'no-progress': 1 } });
    expect(summary.workflows['b']).toMatchObject({ correctness: 0.25, judged: 4, judge_errors: 0, stop_reasons: { 'no-progress': 1, 'hop-budget': 1 } });
    expect(summary.workflows['a']!.correctness_ci95).toEqual([1, 1]);
    expect(summary.judge).toMatchObject({ calls: 4, prompt_tokens: 400, completion_tokens: 60, errors: 1, tokens_estimated: true });
    // Correctness is compared on the questions both have a verdict for: q1..q3.
    expect(summary.comparisons.filter((c) => c.metric !== 'tokens').map((c) => [c.metric, c.n, c.diff])).toEqual([['correctness', 3, 2 / 3], ['em', 4, 0.5]]);
    expect(summary.breakdown.hops.map((c) => [c.group, c.workflow, c.n, c.em])).toEqual([
      ['2', 'a', 2, 0.5], ['2', 'b', 2, 0], ['3', 'a', 1, 1], ['3', 'b', 1, 0], ['4', 'a', 1, 0], ['4', 'b', 1, 0],
    ]);
    expect(summary.breakdown.type.map((c) => [c.group, c.workflow, c.n, c.correctness])).toEqual([
      ['bridge', 'a', 2, 1], ['bridge', 'b', 2, 0], ['comparison', 'a', 1, 1], ['comparison', 'b', 1, 1],
    ]);
    const md = renderSummary(summary);
    expect(md).toContain('Retrieval: **open** — every question searches one shared corpus of 120 passages');
    expect(md).toContain('correctness here is the offline model’s lexical judgement');
    expect(md).toContain('| a | 4 | 0 | 1.000 | [1.000, 1.000] | 0.500 |');
    expect(md).toContain('| Correct (offline judge) | a | b | 3 | +0.667 |');
    expect(md).toContain('| hops | workflow | n | Correct (offline judge) | EM |');
    expect(renderSummary({ ...summary, judge: { ...summary.judge!, offline: false } })).toContain('| Correct | a | b | 3 | +0.667 |');
    expect(md).toMatch(/## By required hops\n\n\| hops \| workflow .*\n.*\n\| 2 \| a \| 2 \| 1\.000 \| 0\.500 /);
    expect(md).toContain('no-progress 1, hop-budget 1');
    expect(md).toContain('- a: hopBudget=5');
    expect(md).toContain('over the first five passage ids of the run’s evidence list');
  });

  it('says so when the dataset records no hop count or type', () => {
    const row: ResultRow = {
      workflow: 'w', questionId: 'q', question: 'q', prediction: 'p', gold: ['g'], status: 'ok',
      metrics: { em: 1, f1: 1, acc: 1, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null },
      usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't',
    };
    const summary = summarize([row], { dataset: 'd', setting: 'closed', model: 'm', offline: false, workflows: ['w'], questionIds: ['q'] });
    expect(summary.breakdown).toEqual({ hops: [], type: [] });
    expect(summary.workflows['w']!.correctness).toBeNull();
    const md = renderSummary(summary);
    expect(md).toContain('The dataset records no hop counts.');
    expect(md).not.toContain('Judge:');
  });

  it('averages a method’s own measures and compares workflows on the ones they share', () => {
    const rowOf = (workflow: string, questionId: string, R?: number): ResultRow => ({
      workflow, questionId, question: 'q', prediction: 'p', gold: ['g'], status: 'ok',
      metrics: { em: 0, f1: 0, acc: 0, recall_at_5: null, full_recall_at_5: null, ndcg_at_5: null, all_pass: null, ...(R === undefined ? {} : { method: { R, turns: 1 } }) },
      usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't',
    });
    const ids = ['q1', 'q2', 'q3'];
    const rows = [...ids.map((q, i) => rowOf('policy', q, 0.5 + i / 10)), ...ids.map((q) => rowOf('fixed', q, 0.5)), ...ids.map((q) => rowOf('other', q))];
    const summary = summarize(rows, {
      dataset: 'd', setting: 'open', model: 'm', offline: true, workflows: ['policy', 'fixed', 'other'], questionIds: ids,
      aggregates: { other: { transition_entropy: 1.5 } },
    });
    expect(summary.workflows['policy']!.method_metrics['R']).toBeCloseTo(0.6, 10);
    expect(summary.workflows['other']!.method_aggregates).toEqual({ transition_entropy: 1.5 });
    expect(summary.workflows['other']!.method_metrics).toEqual({});
    const r = summary.comparisons.filter((c) => c.metric === 'R');
    expect(r.map((c) => [c.b, c.n])).toEqual([['fixed', 3]]);
    expect(r[0]!.diff).toBeCloseTo(0.1, 10);
    const md = renderSummary(summary);
    expect(md).toContain('| workflow | R (mean) | turns (mean) | transition_entropy (over the runs) |');
    expect(md).toContain('| policy | 0.6000 | 1.0000 | — |');
    expect(md).toContain('| other | — | — | 1.5000 |');
    expect(md).toMatch(/\| R \| policy \| fixed \| 3 \| \+0\.100 \|/);
  });
});
