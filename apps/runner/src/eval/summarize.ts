import type { Budget } from '@multihop/core';
import { bootstrapMean, comparePaired, formatPValue, mean, percentile } from '@multihop/metrics';
import { countBy } from './countBy';
import { describeBudget, isRetryable, rowTokens, scoredAsWrong, scoredMetrics, type ResultRow } from './ResultsLog';
import { renderRouterCurve, routerCurve, type RouterCurve, type RouterCurveInput } from './routerCurve';

/** The judge's verdict on one row, as the summary needs it. */
export interface RowVerdict {
  correct: 0 | 1 | null;
  /** The judge call's tokens (absent when no call was made). */
  promptTokens?: number;
  completionTokens?: number;
  estimated?: boolean;
  cached?: boolean;
}

export interface WorkflowSummary {
  /** Runs scored: every metric here is over these (a failure of the workflow's own is scored as wrong; other failures are left out, counted in `failed`). */
  n: number;
  /** Runs that failed (status error): those of the workflow's own (MODEL_OUTPUT, PLAN, STEP_LIMIT, a request the server refused) score as wrong; the others are left out of every metric here. */
  failed: number;
  /** The failed runs by error code (PROVIDER, ENVIRONMENT, UNEXPECTED, ...). */
  failed_codes: Record<string, number>;
  /** LLM-judge correctness (PAR² A.2): mean over the judged answers; null without a judge. */
  correctness: number | null;
  /** Seeded percentile-bootstrap 95% interval of the mean correctness. */
  correctness_ci95: [number, number] | null;
  /** Answers with a verdict; `judge_errors` had a reply the judge prompt could not read, or a failed call. */
  judged: number;
  judge_errors: number;
  em: number;
  f1: number;
  acc: number;
  recall_at_5: number | null;
  ndcg_at_5: number | null;
  all_pass: number | null;
  /** Model calls per question (mean), the workflow's own (the judge's are counted apart). */
  llm_calls: number;
  /** Prompt + completion tokens per question (mean), the workflow's own. */
  tokens: number;
  /** True when any token count came from an estimate, not the provider. */
  tokens_estimated: boolean;
  /** Model calls answered from the response cache (--cache), of all the runs' calls: their tokens are the first run's, their latency a cache read. Absent in summaries written before it. */
  cached_calls?: number;
  retrieval_calls: number;
  latency_ms_p50: number;
  latency_ms_p95: number;
  /** Seeded percentile-bootstrap 95% interval of the mean EM. */
  em_ci95: [number, number];
  /** Every run's status, failed ones included. */
  status: { ok: number; partial: number; error: number };
  /** How many runs stopped early, by reason (`no-progress`, `hop-budget`, `step-budget`, `budget:tokens`, ...). */
  stop_reasons: Record<string, number>;
  /** Means of the method's own measures (MAO-ARAG's `R`, its F1 and cost parts), where the workflow has them. */
  method_metrics: Record<string, number>;
  /** The method's measures over all these runs together (HERA's transition entropy), where it has them. */
  method_aggregates: Record<string, number>;
}

/** The first workflow against another on one metric, on the questions both have: paired, so question difficulty cancels. */
export interface PairedComparison {
  /** `correctness`, `em`, or one of the method's own measures both workflows report (`R`). */
  metric: string;
  a: string;
  b: string;
  n: number;
  /** mean(a) − mean(b). */
  diff: number;
  /** Seeded paired-bootstrap 95% interval of the difference. */
  diff_ci95: [number, number];
  /** Paired sign-flip permutation test, two-sided. */
  p_value: number;
}

/** One cell of a breakdown: one workflow on the questions of one hop count or type. */
export interface BreakdownCell {
  group: string;
  workflow: string;
  n: number;
  correctness: number | null;
  em: number;
  f1: number;
  recall_at_5: number | null;
  ndcg_at_5: number | null;
  all_pass: number | null;
}

export interface JudgeSummary {
  /** The judge model (`offline`, `openai:gpt-4o`). */
  model: string;
  /** What its verdicts are kept under in judgements.jsonl: the model, and a hash of its set-up when that differs from the bare id (absent in summaries written before it: read `model`). */
  key?: string;
  label: string;
  offline: boolean;
  calls: number;
  /** Calls answered from the response cache. */
  cached: number;
  prompt_tokens: number;
  completion_tokens: number;
  tokens_estimated: boolean;
  errors: number;
}

export interface CorpusSummary {
  /** `open` (one shared corpus), `closed` (each question's own paragraphs) or `closed-book` (nothing to search). */
  setting: string;
  /** The LanceDB table searched, or `(none)`. */
  name: string;
  /** Passages a question could retrieve from (in the closed setting: the whole pool, each question sees its own). */
  passages: number;
  /** A corpus file given with --corpus. */
  source?: string;
  /**
   * Gold the corpus does not hold, over the evaluated questions (HotpotQA's fullwiki file, a title
   * no passage has): retrieval metrics count only the gold it holds, so they read high.
   */
  unresolved_gold?: { questions: number; titles: number };
  /** No evaluated question names a gold passage (a question set with answers only): no workflow has retrieval scores. */
  no_gold_passages?: true;
}

export interface Summary {
  dataset: string;
  /** What the reader must know before trusting the figures: a router trained on another model's evals, or on some of these questions. */
  warnings?: string[];
  /**
   * The id-aliases file (2WikiMultiHopQA's id_aliases.json) whose aliases and demonyms joined the
   * gold answers, and how many of the evaluated questions gained one: EM, F1, Acc and the judge
   * accept them, as 2Wiki's official evaluation does.
   */
  answer_aliases?: { file: string; sha1: string; questions: number };
  setting: string;
  corpus?: CorpusSummary;
  model: string;
  offline: boolean;
  /** The offline model served some roles of the runs, not all (`offline` false): its figures may be among these. */
  offline_partly?: true;
  judge?: JudgeSummary;
  /** Each run's budget (--max-llm-calls, --max-tokens, --timeout), when one was set: a run that reached it is partial, `budget:<limit>`. */
  budget?: Budget;
  n: number;
  /** Questions skipped at the start of the file (`--offset`). */
  offset: number;
  /** `--part K/N`: the questions were those of part K of N by id (after the offset and limit). */
  part?: { part: number; of: number };
  /** The ids of the `n` questions the figures are over, in the order they were asked: a directory several evals share holds more. */
  question_ids: string[];
  created: string;
  /** How the retrieval metrics are computed: which k, over which list. */
  retrieval_metrics: string;
  /** Each workflow's settings (paper defaults with the user's overrides). */
  settings: Record<string, Record<string, unknown>>;
  /** For `multihop sweep`: the workflow and the values swept, one summary row per combination. */
  sweep?: { workflow: string; params: Record<string, unknown[]>; rows: Record<string, Record<string, unknown>> };
  workflows: Record<string, WorkflowSummary>;
  /** The first workflow against each other one, on correctness (when judged) and on EM. */
  comparisons: PairedComparison[];
  /** Every metric by required hops and by question type, where the dataset records them. */
  breakdown: { hops: BreakdownCell[]; type: BreakdownCell[] };
  /** When a router is evaluated: the best of its candidates per question in hindsight (the headroom). */
  oracle?: OracleSummary;
  /** When a router with a policy is evaluated beside every candidate: its choice replayed at each λ of the policy. */
  router_curve?: RouterCurve;
  /** Why a router's eval has no curve across λ (a candidate that did not run here, no question every candidate ran). */
  router_curve_left_out?: string;
  /** Failed runs (status error): how many, by code and workflow, how many score as wrong answers (the workflow's own failures, their tokens in their workflow's figures), and how many a re-run retries; the runs left out of every metric spent `tokens`. */
  failed: FailureSummary;
  /** Present when not every planned run is here (Ctrl-C, or pairs that never ran): the figures are over what ran. */
  incomplete?: IncompleteSummary;
}

export interface FailureSummary {
  runs: number;
  /** Failed runs whose cause may pass (provider, environment, search, aborted): a re-run of the command runs them again. */
  retryable: number;
  /** Failed runs whose failure is the workflow's own: scored as wrong answers (absent when none). */
  scored_as_wrong?: number;
  codes: Record<string, number>;
  workflows: Record<string, number>;
  /** Tokens (prompt + completion) the failed runs left out of the figures spent before they failed: in no workflow's figures, so counted here. */
  tokens: number;
  /** Runs the server refused for a setting the configuration sends (a 400 naming `temperature`, `max_tokens`, ...): how many, and the first one's setting and error (absent when none). */
  setting_refused?: { runs: number; setting: string; error: string };
}

export interface IncompleteSummary {
  /** The evaluation was stopped (Ctrl-C) before every pair ran. */
  stopped: boolean;
  /** Questions with at least one run, of `n` planned. */
  questions_run: number;
  /** Questions every workflow has run, of `n` planned (absent in summaries written before it). */
  questions_complete?: number;
  /** Runs per workflow (scored and failed), of `n` each. */
  runs: Record<string, number>;
  /**
   * Present when every run finished and it was the judging that was stopped (Ctrl-C): how many
   * answers still have no verdict. A re-run of the command judges them, and runs nothing again.
   */
  judging?: { unjudged: number };
}

/**
 * The oracle of a router eval: for each question, the candidate that did best in hindsight
 * (judged correct first, then judged at all, then F1, then the fewest tokens), over the candidates this eval ran.
 */
export interface OracleSummary {
  router: string;
  /** The router's candidates this eval ran (the oracle chooses among these). */
  candidates: string[];
  /** The router's candidates this eval did not run (the oracle could not choose them). */
  missing: string[];
  n: number;
  correctness: number | null;
  em: number;
  f1: number;
  /** Tokens per question of the chosen runs (mean). */
  tokens: number;
  llm_calls: number;
  /** How many questions each candidate was the hindsight choice for. */
  choices: Record<string, number>;
}

export interface SummaryContext {
  dataset: string;
  /** What the reader must know before trusting the figures (a router trained on another model, or on these questions), one line each. */
  warnings?: string[];
  answerAliases?: Summary['answer_aliases'];
  setting: string;
  model: string;
  offline: boolean;
  /** RunnerModel.partlyOffline. */
  offlinePartly?: boolean;
  workflows: string[];
  questionIds: string[];
  offset?: number;
  part?: { part: number; of: number };
  corpus?: CorpusSummary;
  /** The judge and its verdicts by `workflow\0questionId`. */
  /** `key`: what the verdicts are kept under, when not the model id. */
  judge?: { model: string; key?: string; label: string; offline: boolean; verdicts: Map<string, RowVerdict> };
  /** Hop count and type of each question, from the dataset. */
  questions?: Map<string, { hops?: number; type?: string }>;
  settings?: Record<string, Record<string, unknown>>;
  /** Per workflow, the method's measures over its runs (computed by the caller, which has the runs). */
  aggregates?: Record<string, Record<string, number>>;
  sweep?: Summary['sweep'];
  /** A router in the eval and its candidates: the summary adds the oracle row over them. */
  router?: { id: string; candidates: readonly string[]; policy?: Omit<RouterCurveInput, 'id' | 'candidates'> };
  /** The evaluation was stopped before every pair ran (Ctrl-C): the summary says it is incomplete. */
  stopped?: boolean;
  budget?: Budget;
  /** With `stopped`: answers left without a verdict because the judging was stopped. */
  unjudged?: number;
}

export const RETRIEVAL_METRICS_NOTE =
  'Recall@5 (any gold passage among the first five) and NDCG@5 (binary gain, log2 discount) are computed over the first five passage ids of the run’s evidence list (results.jsonl also holds full recall@5, the share of the gold passages among them), in the order the run gathered them (RunResult.evidenceIds, deduplicated, first occurrence kept); All-Pass: every gold passage anywhere in that list. A workflow that searches nothing by design (closed-book: direct, cot) has none (—).';

const meanOrNull = (values: Array<number | null>): number | null => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? mean(present) : null;
};

const verdictKey = (workflow: string, questionId: string) => `${workflow}\u0000${questionId}`;

/** Aggregates the rows of the given workflows over the given questions (all rows from a real run). */
export function summarize(allRows: readonly ResultRow[], context: SummaryContext): Summary {
  const wanted = new Set(context.questionIds);
  const asked = allRows.filter((r) => wanted.has(r.questionId) && context.workflows.includes(r.workflow)).map(scoredMetrics);
  // A failed run (status error) whose failure is the workflow's own answered nothing: it scores as
  // wrong, with its tokens (scoredAsWrong, scoredMetrics). Any other failure (an outage, a damaged
  // store, a bug) says nothing about the question: it is left out of every metric and counted apart.
  const rows = asked.filter((r) => r.status !== 'error' || scoredAsWrong(r));
  const failedRows = asked.filter((r) => r.status === 'error');
  const leftOut = failedRows.filter((r) => !scoredAsWrong(r));
  const verdicts = context.judge?.verdicts;
  // No judge, no correctness: a failure scored as wrong is wrong by EM and F1, but a correctness of
  // 0 for it beside none for the answers would read as a judged figure.
  const correctOf = (r: ResultRow): number | null => (!verdicts ? null : scoredAsWrong(r) ? 0 : (verdicts.get(verdictKey(r.workflow, r.questionId))?.correct ?? null));
  // A workflow some of whose answers have no verdict yet (the judging was stopped, or the runs were)
  // has no correctness, and no comparison on it, until a re-run judges them: over its failures
  // scored as wrong and a part of its answers, the mean would read low (all failures and no answer
  // judged: 0.000). The oracle and the router's curve take each question's runs as they are.
  const judgingUnfinished = new Set(verdicts ? rows.filter((r) => wanted.has(r.questionId) && !scoredAsWrong(r) && !verdicts.has(verdictKey(r.workflow, r.questionId))).map((r) => r.workflow) : []);
  const finishedCorrectOf = (r: ResultRow): number | null => (judgingUnfinished.has(r.workflow) ? null : correctOf(r));
  const workflows: Record<string, WorkflowSummary> = {};
  for (const id of context.workflows) {
    const mine = rows.filter((r) => r.workflow === id && wanted.has(r.questionId));
    if (mine.length === 0) continue;
    const all = asked.filter((r) => r.workflow === id);
    const failedHere = failedRows.filter((r) => r.workflow === id);
    const em = mine.map((r) => r.metrics.em);
    const ci = bootstrapMean(em, { seed: 7, resamples: 2000 });
    const correct = mine.map(finishedCorrectOf).filter((c): c is number => c !== null);
    const correctCi = correct.length ? bootstrapMean(correct, { seed: 7, resamples: 2000 }) : undefined;
    const latencies = mine.map((r) => r.latencyMs);
    const stops: Record<string, number> = {};
    for (const r of mine) if (r.stopReason) stops[r.stopReason] = (stops[r.stopReason] ?? 0) + 1;
    workflows[id] = {
      n: mine.length,
      failed: failedHere.length,
      failed_codes: countBy(failedHere.map((r) => r.errorCode ?? 'UNKNOWN')),
      correctness: correct.length ? mean(correct) : null,
      correctness_ci95: correctCi ? [correctCi.lower, correctCi.upper] : null,
      judged: judgingUnfinished.has(id) ? mine.filter((r) => !scoredAsWrong(r) && verdicts?.get(verdictKey(r.workflow, r.questionId))?.correct != null).length : correct.length,
      judge_errors: verdicts ? mine.filter((r) => verdicts.has(verdictKey(r.workflow, r.questionId)) && correctOf(r) === null).length : 0,
      em: mean(em),
      f1: mean(mine.map((r) => r.metrics.f1)),
      acc: mean(mine.map((r) => r.metrics.acc)),
      recall_at_5: meanOrNull(mine.map((r) => r.metrics.recall_at_5)),
      ndcg_at_5: meanOrNull(mine.map((r) => r.metrics.ndcg_at_5)),
      all_pass: meanOrNull(mine.map((r) => r.metrics.all_pass)),
      llm_calls: mean(mine.map((r) => r.usage.llmCalls)),
      tokens: mean(mine.map(rowTokens)),
      tokens_estimated: mine.some((r) => r.usage.estimated),
      cached_calls: mine.reduce((n, r) => n + Object.values(r.usage.byRole ?? {}).reduce((m, role) => m + (role.cachedCalls ?? 0), 0), 0),
      retrieval_calls: mean(mine.map((r) => r.usage.retrievalCalls)),
      latency_ms_p50: percentile(latencies, 50),
      latency_ms_p95: percentile(latencies, 95),
      em_ci95: [ci.lower, ci.upper],
      status: {
        ok: all.filter((r) => r.status === 'ok').length,
        partial: all.filter((r) => r.status === 'partial').length,
        error: all.filter((r) => r.status === 'error').length,
      },
      stop_reasons: stops,
      method_metrics: methodMeans(mine),
      method_aggregates: context.aggregates?.[id] ?? {},
    };
  }
  const present = context.workflows.filter((id) => workflows[id]);
  const inScope = rows.filter((r) => wanted.has(r.questionId) && present.includes(r.workflow));
  return {
    dataset: context.dataset,
    ...(context.warnings?.length ? { warnings: context.warnings } : {}),
    ...(context.answerAliases ? { answer_aliases: context.answerAliases } : {}),
    setting: context.setting,
    ...(context.corpus ? { corpus: context.corpus } : {}),
    model: context.model,
    offline: context.offline,
    ...(context.offlinePartly && !context.offline ? { offline_partly: true as const } : {}),
    ...(context.judge ? { judge: judgeSummary(context.judge, inScope) } : {}),
    n: context.questionIds.length,
    offset: context.offset ?? 0,
    ...(context.part ? { part: context.part } : {}),
    question_ids: context.questionIds,
    created: new Date().toISOString(),
    retrieval_metrics: RETRIEVAL_METRICS_NOTE,
    settings: Object.fromEntries(present.map((id) => [id, context.settings?.[id] ?? {}])),
    ...(context.sweep ? { sweep: context.sweep } : {}),
    ...(context.budget ? { budget: context.budget } : {}),
    workflows,
    comparisons: [
      ...(verdicts ? compareToFirst(inScope, present, 'correctness', finishedCorrectOf) : []),
      ...compareToFirst(inScope, present, 'em', (r) => r.metrics.em),
      // Cost, paired the same way: a router's claim is quality at no more than another's tokens.
      ...compareToFirst(inScope, present, 'tokens', rowTokens),
      // The first workflow's own measures, against every other workflow that reports them too.
      ...Object.keys(workflows[present[0] ?? '']?.method_metrics ?? {}).flatMap((name) =>
        compareToFirst(
          inScope,
          present.filter((id) => name in (workflows[id]?.method_metrics ?? {})),
          name,
          (r) => r.metrics.method?.[name] ?? null,
        ),
      ),
    ],
    breakdown: {
      hops: breakdown(inScope, present, (q) => (context.questions?.get(q)?.hops ? `${context.questions.get(q)!.hops}` : undefined), finishedCorrectOf),
      type: breakdown(inScope, present, (q) => context.questions?.get(q)?.type, finishedCorrectOf),
    },
    // The oracle chooses among the candidates this eval ran: with none of them, there is none (not a row of zeros).
    ...(context.router && workflows[context.router.id] && context.router.candidates.some((c) => present.includes(c)) ? { oracle: oracle(inScope, context.router, present, context.questionIds, correctOf) } : {}),
    ...curveOf(inScope, context, correctOf),
    failed: {
      runs: failedRows.length,
      retryable: failedRows.filter(isRetryable).length,
      codes: countBy(failedRows.map((r) => r.errorCode ?? 'UNKNOWN')),
      workflows: countBy(failedRows.map((r) => r.workflow)),
      ...(leftOut.length < failedRows.length ? { scored_as_wrong: failedRows.length - leftOut.length } : {}),
      tokens: leftOut.reduce((n, r) => n + rowTokens(r), 0),
      ...settingRefused(failedRows),
    },
    ...incompleteOf(asked, context),
  };
}

function settingRefused(failedRows: readonly ResultRow[]): Pick<FailureSummary, 'setting_refused'> {
  const refused = failedRows.filter((r) => r.errorSetting !== undefined);
  const first = refused[0];
  return first ? { setting_refused: { runs: refused.length, setting: first.errorSetting!, error: first.error ?? '' } } : {};
}

/** What summary.md says of the failed runs: which score as wrong, which are left out, which a re-run retries. */
function failedRunsLine(failed: Summary['failed']): string {
  const { runs, retryable } = failed;
  const own = failed.scored_as_wrong ?? 0;
  const out = runs - own;
  const codes = Object.entries(failed.codes).map(([c, k]) => `${c} ${k}`).join(', ');
  const parts = [`${runs} run${runs === 1 ? '' : 's'} failed (${codes}).`];
  if (own) parts.push(`${own} failed on ${own === 1 ? 'its' : 'their'} workflow's own account (a reply past its repair round, an invalid plan, a step limit, a request the server refused) and score${own === 1 ? 's' : ''} as ${own === 1 ? 'a wrong answer' : 'wrong answers'} in every figure, with the tokens ${own === 1 ? 'it' : 'they'} spent.`);
  if (out) {
    parts.push(
      `${out} ${out === 1 ? 'is' : 'are'} left out of every figure here (n counts the runs scored) and spent ${failed.tokens ?? 0} tokens (prompt + completion), counted in no figure above; ${retryable ? `${retryable} of them may pass on a re-run of the same command, which runs ${retryable === 1 ? 'it' : 'them'} again (each getting back the model calls it completed, not paying for them twice)` : `a re-run of the same command does not run ${out === 1 ? 'it' : 'them'} again`}.`,
    );
  }
  const refused = failed.setting_refused;
  if (refused) {
    parts.push(
      `${refused.runs === runs ? (runs === 1 ? 'It was' : 'They were all') : `${refused.runs} of them were`} refused by the server for a setting the model configuration sends (\`${refused.setting}\`), not for the question: mend it in multihop.config.json, or the server, and re-run. The first: ${refused.error}`,
    );
  }
  return parts.join(' ');
}

function curveOf(rows: readonly ResultRow[], context: SummaryContext, correctOf: (r: ResultRow) => number | null): Pick<Summary, 'router_curve' | 'router_curve_left_out'> {
  const router = context.router;
  if (!router?.policy) return {};
  // The curve replays the router's choice from its candidates' own runs: each must have run here.
  const missing = router.candidates.filter((c) => !context.workflows.includes(c));
  if (missing.length) {
    return { router_curve_left_out: `it replays ${router.id}'s choice at each λ from its candidates' own runs, and ${missing.join(', ')} did not run in this eval (run ${missing.length === 1 ? 'it' : 'them'} beside the router in one eval: eval --workflows ${router.id},${router.candidates.join(',')})` };
  }
  const curve = routerCurve(rows, { id: router.id, candidates: router.candidates, ...router.policy }, context.questionIds, correctOf);
  return curve ? { router_curve: curve } : { router_curve_left_out: `it replays ${router.id}'s choice at each λ from its candidates' own runs, and no question has a scored run of every candidate` };
}

function incompleteOf(asked: readonly ResultRow[], context: SummaryContext): { incomplete?: IncompleteSummary } {
  const planned = context.questionIds.length;
  const runs = Object.fromEntries(context.workflows.map((id) => [id, asked.filter((r) => r.workflow === id).length]));
  if (Object.values(runs).every((n) => n >= planned)) {
    // Every pair ran: a stop (Ctrl-C) can only have cut the judging short.
    if (!context.stopped || !context.unjudged) return {};
    return { incomplete: { stopped: true, questions_run: new Set(asked.map((r) => r.questionId)).size, runs, judging: { unjudged: context.unjudged } } };
  }
  const byQuestion = new Map<string, Set<string>>();
  for (const r of asked) byQuestion.set(r.questionId, (byQuestion.get(r.questionId) ?? new Set()).add(r.workflow));
  const complete = [...byQuestion.values()].filter((ran) => context.workflows.every((id) => ran.has(id))).length;
  return { incomplete: { stopped: Boolean(context.stopped), questions_run: byQuestion.size, questions_complete: complete, runs } };
}

/** How far an interrupted eval got: questions every workflow ran, and those some began. */
export function incompleteProgress(inc: IncompleteSummary, n: number): string {
  return inc.questions_complete === undefined || inc.questions_complete === inc.questions_run
    ? `${inc.questions_run} of ${n} questions ran`
    : `${inc.questions_complete} of ${n} questions ran with every workflow (${inc.questions_run} begun)`;
}

function oracle(rows: readonly ResultRow[], router: { id: string; candidates: readonly string[] }, present: readonly string[], questionIds: readonly string[], correctOf: (r: ResultRow) => number | null): OracleSummary {
  const candidates = router.candidates.filter((id) => present.includes(id));
  const chosen: ResultRow[] = [];
  const byQuestion = new Map<string, ResultRow[]>();
  for (const r of rows) if (candidates.includes(r.workflow)) (byQuestion.get(r.questionId) ?? byQuestion.set(r.questionId, []).get(r.questionId)!).push(r);
  for (const q of questionIds) {
    const runs = (byQuestion.get(q) ?? []).sort((a, b) => candidates.indexOf(a.workflow) - candidates.indexOf(b.workflow));
    if (runs.length === 0) continue;
    // Best in hindsight: judged correct, then judged at all (a run the judge did not reach counts
    // below one judged incorrect, so a question is never left out of the oracle's correctness for
    // it), then F1, then the cheapest; ties keep the candidates' order.
    const best = runs.reduce((a, b) => {
      const key = (r: ResultRow) => {
        const correct = correctOf(r);
        return [correct === 1 ? 2 : correct === 0 ? 1 : 0, r.metrics.f1, -rowTokens(r)];
      };
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! > ka[i]! ? b : a;
      return a;
    });
    chosen.push(best);
  }
  return {
    router: router.id,
    candidates,
    missing: router.candidates.filter((id) => !present.includes(id)),
    n: chosen.length,
    correctness: meanOrNull(chosen.map(correctOf)),
    em: chosen.length ? mean(chosen.map((r) => r.metrics.em)) : 0,
    f1: chosen.length ? mean(chosen.map((r) => r.metrics.f1)) : 0,
    tokens: chosen.length ? mean(chosen.map(rowTokens)) : 0,
    llm_calls: chosen.length ? mean(chosen.map((r) => r.usage.llmCalls)) : 0,
    choices: countBy(chosen.map((r) => r.workflow)),
  };
}

function methodMeans(rows: readonly ResultRow[]): Record<string, number> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.metrics.method ?? {})))];
  return Object.fromEntries(names.map((name) => [name, mean(rows.map((r) => r.metrics.method?.[name]).filter((v): v is number => typeof v === 'number'))]));
}

function judgeSummary(judge: NonNullable<SummaryContext['judge']>, rows: readonly ResultRow[]): JudgeSummary {
  const used = rows.flatMap((r) => {
    const v = judge.verdicts.get(verdictKey(r.workflow, r.questionId));
    return v ? [v] : [];
  });
  const called = used.filter((v) => v.promptTokens !== undefined);
  return {
    model: judge.model,
    ...(judge.key && judge.key !== judge.model ? { key: judge.key } : {}),
    label: judge.label,
    offline: judge.offline,
    calls: called.length,
    cached: called.filter((v) => v.cached).length,
    prompt_tokens: called.reduce((s, v) => s + (v.promptTokens ?? 0), 0),
    completion_tokens: called.reduce((s, v) => s + (v.completionTokens ?? 0), 0),
    tokens_estimated: called.some((v) => v.estimated),
    errors: used.filter((v) => v.correct === null).length,
  };
}

function compareToFirst(rows: readonly ResultRow[], ids: string[], metric: PairedComparison['metric'], value: (r: ResultRow) => number | null): PairedComparison[] {
  const [first, ...others] = ids;
  if (!first) return [];
  const scores = (id: string) =>
    new Map(rows.filter((r) => r.workflow === id).flatMap((r) => {
      const v = value(r);
      return v === null ? [] : [[r.questionId, v] as const];
    }));
  const base = scores(first);
  return others.flatMap((id) => {
    const other = scores(id);
    const shared = [...base.keys()].filter((q) => other.has(q));
    if (shared.length === 0) return [];
    const c = comparePaired(shared.map((q) => base.get(q)!), shared.map((q) => other.get(q)!), { seed: 7, resamples: 2000, permutations: 5000 });
    return [{ metric, a: first, b: id, n: shared.length, diff: c.meanDifference, diff_ci95: [c.lower, c.upper] as [number, number], p_value: c.pValue }];
  });
}

function breakdown(rows: readonly ResultRow[], ids: string[], groupOf: (questionId: string) => string | undefined, correctOf: (r: ResultRow) => number | null): BreakdownCell[] {
  const groups = [...new Set(rows.map((r) => groupOf(r.questionId)).filter((g): g is string => g !== undefined))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
  return groups.flatMap((group) =>
    ids.flatMap((workflow) => {
      const mine = rows.filter((r) => r.workflow === workflow && groupOf(r.questionId) === group);
      if (mine.length === 0) return [];
      return [
        {
          group,
          workflow,
          n: mine.length,
          correctness: meanOrNull(mine.map(correctOf)),
          em: mean(mine.map((r) => r.metrics.em)),
          f1: mean(mine.map((r) => r.metrics.f1)),
          recall_at_5: meanOrNull(mine.map((r) => r.metrics.recall_at_5)),
          ndcg_at_5: meanOrNull(mine.map((r) => r.metrics.ndcg_at_5)),
          all_pass: meanOrNull(mine.map((r) => r.metrics.all_pass)),
        },
      ];
    }),
  );
}

const f3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));
/** The correctness column's heading: whose verdicts they are, when the offline judge's (as the report heads it). */
const correctHeading = (summary: Summary) => (summary.judge?.offline ? 'Correct (offline judge)' : 'Correct');
const ci = (v: [number, number] | null) => (v === null ? '—' : `[${f3(v[0])}, ${f3(v[1])}]`);

/** The summary as Markdown: the setting and corpus, the models (the offline model always labelled), the tables. */
export function renderSummary(summary: Summary): string {
  const corpus = summary.corpus;
  const inc = summary.incomplete;
  const lines = [
    `# ${summary.dataset} (${corpus?.setting ?? summary.setting} setting), ${inc ? (inc.judging ? `${summary.n} questions, INCOMPLETE: judging interrupted` : `INCOMPLETE: ${incompleteProgress(inc, summary.n)}`) : `${summary.n} questions`}${summary.part ? ` (part ${summary.part.part} of ${summary.part.of} by question id${summary.offset ? ` of the file from #${summary.offset + 1}` : ''})` : summary.offset ? ` (#${summary.offset + 1}–#${summary.offset + summary.n} of the file)` : ''}`,
    '',
    ...(summary.warnings ?? []).flatMap((w) => [`**Warning**: ${w}`, '']),
    ...(inc?.judging
      ? [
          `**Incomplete**: every run finished, but the judging was stopped (Ctrl-C) with ${inc.judging.unjudged} answer${inc.judging.unjudged === 1 ? '' : 's'} not yet judged: a workflow with answers not yet judged has no correctness until they are (the other figures are over every run). Re-run the same command to judge the rest: no pair runs again.`,
          '',
        ]
      : inc
      ? [
          `**Incomplete**: ${inc.stopped ? 'stopped (Ctrl-C) before every pair ran' : 'not every pair has run'}; runs per workflow: ${Object.entries(inc.runs).map(([id, n]) => `${id} ${n}`).join(', ')} (of ${summary.n} each). The figures below are over the runs that finished${summary.judge ? ', but for correctness: the judge runs once every pair has run, so a workflow whose answers are not yet judged has none' : ''}; re-run the same command to finish the rest.`,
          '',
        ]
      : []),
    corpus
      ? corpus.setting === 'closed-book'
        ? 'Retrieval: **closed-book** — the dataset brings no passages and no corpus was given, so nothing could be retrieved.'
        : corpus.setting === 'closed'
          ? `Retrieval: **closed** — each question searches only its own paragraphs (${corpus.passages} passages in the pool, table \`${corpus.name}\`).`
          : `Retrieval: **open** — every question searches one shared corpus of ${corpus.passages} passages (table \`${corpus.name}\`${corpus.source ? `, from ${corpus.source}` : ', the pooled paragraphs of the dataset'}).`
      : `Retrieval: ${summary.setting} setting.`,
    ...(summary.answer_aliases
      ? [
          '',
          `**Answer aliases**: the gold answers of ${summary.answer_aliases.questions} of these questions include the aliases and demonyms ${summary.answer_aliases.file} lists for their answer_id; EM, F1, Acc and the judge accept any of them, as 2WikiMultiHopQA's official evaluation does.`,
        ]
      : []),
    ...(corpus?.unresolved_gold
      ? [
          '',
          `**Gold the corpus does not hold**: ${corpus.unresolved_gold.titles} gold title${corpus.unresolved_gold.titles === 1 ? '' : 's'} of ${corpus.unresolved_gold.questions} of these questions match no passage; Recall@5, NDCG@5 and All-Pass count only the gold the corpus holds (a question with none has no retrieval scores), so they read higher than over all the gold.`,
        ]
      : []),
    ...(corpus?.no_gold_passages
      ? ['', '**No gold passages**: none of these questions names a gold passage (a question set with answers only), so no workflow has retrieval scores: Recall@5, NDCG@5 and All-Pass read —.']
      : []),
    '',
    `Model: **${summary.model}**${summary.offline ? ' — these are the offline model’s figures, not a language model’s.' : ''}`,
    ...(summary.budget
      ? ['', `Budget of each run: ${describeBudget(summary.budget).slice(1, -1)}; a run that reached it stopped with its draft answer (status partial; its limit in the stopped early column, e.g. budget:maxLlmCalls).`]
      : []),
  ];
  if (summary.judge) {
    const j = summary.judge;
    lines.push(
      '',
      `Judge: **${j.label}**${j.offline ? ' — correctness here is the offline model’s lexical judgement, not a language model’s.' : '.'} Its verdicts on these answers came from ${j.calls} judge calls, made by this or an earlier run of the same directory (${j.cached} answered from the response cache; a re-run reuses the verdicts in judgements.jsonl and calls the judge only for new answers), ${j.prompt_tokens + j.completion_tokens}${j.tokens_estimated ? '*' : ''} tokens, counted apart from the workflows’ own${j.errors ? `; ${j.errors} answers have no verdict (the judge's call failed or its reply could not be read: each error in judgements.jsonl), left out of correctness` : ''}.`,
    );
  }
  if (summary.sweep) {
    const params = Object.keys(summary.sweep.params);
    lines.push('', `## Sweep of ${summary.sweep.workflow}: ${params.join(', ')}`, '');
    lines.push(`| ${params.join(' | ')} | n | ${correctHeading(summary)} | Correct 95% CI | EM | F1 | Recall@5 | NDCG@5 | All-Pass | LLM calls/q | stopped early |`);
    lines.push(`|${'---|'.repeat(params.length + 10)}`);
    for (const [id, values] of Object.entries(summary.sweep.rows)) {
      const w = summary.workflows[id];
      if (!w) continue;
      const stops = Object.entries(w.stop_reasons).map(([r, n]) => `${r} ${n}`).join(', ') || '—';
      lines.push(
        `| ${params.map((p) => String(values[p])).join(' | ')} | ${w.n} | ${f3(w.correctness)} | ${ci(w.correctness_ci95)} | ${f3(w.em)} | ${f3(w.f1)} | ${f3(w.recall_at_5)} | ${f3(w.ndcg_at_5)} | ${f3(w.all_pass)} | ${w.llm_calls.toFixed(1)} | ${stops} |`,
      );
    }
  }
  lines.push(
    '',
    '## Workflows',
    '',
    `| workflow | n | failed | ${correctHeading(summary)} | Correct 95% CI | EM | EM 95% CI | F1 | Acc | Recall@5 | NDCG@5 | All-Pass | LLM calls/q | tokens/q | latency p50 ms | ok/partial/error | stopped early |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const failedCell = (n: number, codes: Record<string, number>) => (n ? `${n} (${Object.entries(codes).map(([c, k]) => `${c} ${k}`).join(', ')})` : '0');
  for (const [id, w] of Object.entries(summary.workflows)) {
    const stops = Object.entries(w.stop_reasons).map(([r, n]) => `${r} ${n}`).join(', ') || '—';
    lines.push(
      `| ${id} | ${w.n} | ${failedCell(w.failed, w.failed_codes)} | ${f3(w.correctness)} | ${ci(w.correctness_ci95)} | ${f3(w.em)} | ${ci(w.em_ci95)} | ${f3(w.f1)} | ${f3(w.acc)} | ${f3(w.recall_at_5)} | ${f3(w.ndcg_at_5)} | ${f3(w.all_pass)} | ${w.llm_calls.toFixed(1)} | ${Math.round(w.tokens)}${w.tokens_estimated ? '*' : ''} | ${w.latency_ms_p50} | ${w.status.ok}/${w.status.partial}/${w.status.error} | ${stops} |`,
    );
  }
  for (const [id, n] of Object.entries(summary.failed.workflows)) {
    if (summary.workflows[id]) continue;
    lines.push(`| ${id} | 0 | ${n} (every run failed) | — | — | — | — | — | — | — | — | — | — | — | — | 0/0/${n} | — |`);
  }
  if (summary.failed.runs) {
    lines.push(
      '',
      failedRunsLine(summary.failed),
    );
  }
  if (summary.oracle) {
    const o = summary.oracle;
    const top = Object.entries(o.choices).slice(0, 6).map(([id, n]) => `${id} ${n}`).join(', ');
    lines.push(
      '',
      `## Oracle: the best of ${o.router}'s candidates per question, in hindsight`,
      '',
      `Chosen after the fact among the ${o.candidates.length === 1 ? 'one candidate' : `${o.candidates.length} candidates`} this eval ran (judged correct first, then judged at all, then F1, then fewest tokens): the most any per-question router over them could reach.${o.missing.length ? ` Not run here, so not chosen: ${o.missing.join(', ')}.` : ''}`,
      '',
      `| row | n | ${correctHeading(summary)} | EM | F1 | LLM calls/q | tokens/q | chosen most |`,
      '|---|---|---|---|---|---|---|---|',
      `| oracle | ${o.n} | ${f3(o.correctness)} | ${f3(o.em)} | ${f3(o.f1)} | ${o.llm_calls.toFixed(1)} | ${Math.round(o.tokens)} | ${top} |`,
    );
  }
  if (summary.router_curve) lines.push(...renderRouterCurve(summary.router_curve, correctHeading(summary)));
  else if (summary.router_curve_left_out) lines.push('', `The router across λ is left out: ${summary.router_curve_left_out}.`);
  const measures = [...new Set(Object.values(summary.workflows).flatMap((w) => Object.keys(w.method_metrics)))];
  const overRuns = [...new Set(Object.values(summary.workflows).flatMap((w) => Object.keys(w.method_aggregates)))];
  if (measures.length || overRuns.length) {
    const heads = [...measures.map((m) => `${m} (mean)`), ...overRuns.map((m) => `${m} (over the runs)`)];
    lines.push('', '## The methods’ own measures', '', `| workflow | ${heads.join(' | ')} |`, `|---|${heads.map(() => '---|').join('')}`);
    for (const [id, w] of Object.entries(summary.workflows)) {
      if (!Object.keys(w.method_metrics).length && !Object.keys(w.method_aggregates).length) continue;
      const cells = [
        ...measures.map((m) => (m in w.method_metrics ? w.method_metrics[m]!.toFixed(4) : '—')),
        ...overRuns.map((m) => (m in w.method_aggregates ? w.method_aggregates[m]!.toFixed(4) : '—')),
      ];
      lines.push(`| ${id} | ${cells.join(' | ')} |`);
    }
  }
  if (summary.comparisons.length) {
    lines.push(
      '',
      '## Paired comparisons',
      '',
      'The first workflow against each other one, on the same questions (seeded paired bootstrap; two-sided sign-flip permutation test, exact for 0/1 measures such as EM and Correct and for up to 12 questions, otherwise 5,000 seeded sign flips):',
      '',
    );
    lines.push('| metric | a | b | n | a − b | 95% CI | p |', '|---|---|---|---|---|---|---|');
    for (const c of summary.comparisons) {
      const fmt = (v: number) => (c.metric === 'tokens' ? v.toFixed(0) : v.toFixed(3));
      const name = c.metric === 'em' ? 'EM' : c.metric === 'correctness' ? correctHeading(summary) : c.metric === 'tokens' ? 'tokens/q' : c.metric;
      lines.push(`| ${name} | ${c.a} | ${c.b} | ${c.n} | ${c.diff >= 0 ? '+' : ''}${fmt(c.diff)} | [${fmt(c.diff_ci95[0])}, ${fmt(c.diff_ci95[1])}] | ${formatPValue(c.p_value)} |`);
    }
  }
  for (const [dimension, title, none] of [
    ['hops', 'By required hops', 'The dataset records no hop counts.'],
    ['type', 'By question type', 'The dataset’s layout records no question type (e.g. the IRCoT HotpotQA file); the original HotpotQA and 2Wiki layouts do.'],
  ] as const) {
    const cells = summary.breakdown[dimension];
    lines.push('', `## ${title}`, '');
    if (cells.length === 0) {
      lines.push(none);
      continue;
    }
    lines.push(`| ${dimension === 'hops' ? 'hops' : 'type'} | workflow | n | ${correctHeading(summary)} | EM | F1 | Recall@5 | NDCG@5 | All-Pass |`, '|---|---|---|---|---|---|---|---|---|');
    for (const c of cells) {
      lines.push(`| ${c.group} | ${c.workflow} | ${c.n} | ${f3(c.correctness)} | ${f3(c.em)} | ${f3(c.f1)} | ${f3(c.recall_at_5)} | ${f3(c.ndcg_at_5)} | ${f3(c.all_pass)} |`);
    }
  }
  const configured = Object.entries(summary.settings).filter(([, s]) => Object.keys(s).length > 0);
  if (configured.length) {
    // A router's "−1: the file's λ", "": the shipped file" and "": the file's pool" read as what they
    // stand for (with the λ itself when the eval replayed the router's curve, which states it).
    const shown = (id: string, k: string, v: unknown): string => {
      if (id !== 'router' && !id.startsWith('router[')) return '';
      const curve = summary.router_curve?.router === id ? summary.router_curve : undefined;
      if (k === 'lambda' && v === -1) return ` (the router file's λ${curve ? `: ${curve.lambda}` : ''})`;
      if (k === 'file' && v === '') return ' (the router file the package ships)';
      if (k === 'pool' && v === '') return ' (as the router file says)';
      if (k === 'candidates' && v === '') return ' (every candidate in the router file installed here)';
      return '';
    };
    lines.push('', '## Settings', '', ...configured.map(([id, s]) => `- ${id}: ${Object.entries(s).map(([k, v]) => `${k}=${JSON.stringify(v)}${shown(id, k, v)}`).join(', ')}`));
  }
  const estimated = Object.values(summary.workflows).some((w) => w.tokens_estimated) || summary.judge?.tokens_estimated;
  lines.push('', '## How these are measured', '');
  if (estimated) lines.push('\\* estimated token counts: the provider reported no usage (≈4 characters per token).', '');
  const cached = Object.entries(summary.workflows).filter(([, w]) => (w.cached_calls ?? 0) > 0);
  if (cached.length) {
    lines.push(
      `From the response cache (--cache): ${cached.map(([id, w]) => `${id} ${w.cached_calls} of ${Math.round(w.llm_calls * w.n)} model calls`).join(', ')}. A cached call reports the tokens of the run that paid for it, and its latency is a cache read: those workflows' tokens are what the calls cost once, their latency is not the model's.`,
      '',
    );
  }
  lines.push(
    `Correct: ${summary.judge?.offline ? 'the offline judge’s lexical verdict (the gold contained in the answer, or token F1 ≥ 0.6), standing in for PAR² A.2’s LLM judge' : 'PAR² A.2’s LLM judge (Explanation:/Decision: reply; a decision containing “yes” counts)'}, mean over the judged answers. EM/F1/Acc: official HotpotQA normalisation, max over gold aliases. ${summary.retrieval_metrics} Intervals: seeded percentile bootstrap, 2000 resamples.`,
  );
  return `${lines.join('\n')}\n`;
}
