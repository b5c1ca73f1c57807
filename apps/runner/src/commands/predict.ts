import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError, makeDirectory, totalTokens, writeFileWhole, type Budget, type Question } from '@multihop/core';
import { hasGold, inPart, parsePart } from '@multihop/datasets';
import { openCorpus, type Setting } from '../corpus';
import type { Io } from '../io';
import { rolesCalled } from '../methods';
import { modelFor, resolveModel } from '../model';
import { defaultRunDir, firstError, type EvaluationOptions } from '../eval/evaluate';
import { readJsonlLog, runPool } from '../eval/jsonl';
import { Progress } from '../eval/Progress';
import { claimLock, describeBudget, fingerprintChanges, isRetryable, type ResultRow } from '../eval/ResultsLog';
import { answerPair, modelIdOf, parseModelId, writeTrace, type EvaluatedWorkflow, type PairContext } from '../eval/runPair';
import { onPath, writableDir } from '../io';
import { parseWorkflowList } from '../workflows';
import { settingAssignments } from '../workflowSettings';

/** What predict shares with eval: the questions, the corpus and setting, the model, the budget, the output. */
export interface PredictCommandOptions
  extends Pick<EvaluationOptions, 'dataset' | 'corpus' | 'setting' | 'offset' | 'limit' | 'part' | 'concurrency' | 'requestConcurrency' | 'budget' | 'model' | 'out' | 'db' | 'cacheDir' | 'layout' | 'skipInvalid' | 'json'> {
  /** `a,b,c`: workflow ids. */
  workflows: string;
  set?: string[];
}

/** One line of predictions.jsonl: a question × workflow pair as eval records it, without gold or metrics. */
export type PredictionRow = Omit<ResultRow, 'gold' | 'metrics'>;

/** What a predictions directory was made with: a re-run resumes it only with the same. */
interface PredictionRun {
  command: 'predict';
  dataset: string;
  setting: Setting;
  /** The corpus table searched: its name carries the question file's and the corpus file's content hashes. */
  corpus: string;
  model: string;
  /** The providers' settings behind the model id (endpoint, temperature...), as eval's run.json keeps them. */
  fingerprints: { default: string; roles: Record<string, string> };
  budget?: Budget;
  settings: Record<string, Record<string, unknown>>;
}

/** A workflow's figures over its pairs: how they ended and what they cost (no quality: there is no gold). Named as eval's summary.json names them. */
export interface PredictionSummary {
  workflow: string;
  n: number;
  status: { ok: number; partial: number; error: number };
  /** Runs that stopped early, by reason (`no-progress`, `budget:maxLlmCalls`, ...). */
  stopped_early: Record<string, number>;
  /** Model calls per question (mean). */
  llm_calls: number;
  /** Prompt + completion tokens per question (mean). */
  tokens: number;
  /** Some runs' tokens are estimated from the text (the offline model reports none). */
  tokens_estimated: boolean;
  latency_ms_p50: number;
}

/**
 * `multihop predict`: every workflow on every question of a question set, gold or none (a test
 * split), K pairs at a time, with nothing scored and no judge. Writes, under --out,
 * predictions.jsonl (a line per run of a pair, appended as each finishes, after its trace file; a
 * pair run again has a later line, the one read),
 * answers/<workflow>.json (`{ question id: answer }`, the form a leaderboard takes), traces/,
 * run.json and summary.md / summary.json (how runs ended, calls, tokens and latency per workflow).
 * Re-running the same command resumes: finished pairs are kept; one that failed in a way a
 * re-run may mend (an outage) runs again.
 */
export async function predictCommand(io: Io, options: PredictCommandOptions): Promise<number> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got ${options.concurrency}`);
  const part = options.part !== undefined ? parsePart(options.part) : undefined;
  const selected = parseWorkflowList(options.workflows, settingAssignments(options.set));
  // A cache path through a file, or one that cannot be written, would fail every pair: one line now, before any runs (as eval).
  if (options.cacheDir !== undefined) writableDir(options.cacheDir, '--cache');
  const roles = rolesCalled(selected.map((s) => s.workflow));
  const model = modelFor(resolveModel(options.model, {
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(options.requestConcurrency !== undefined ? { concurrency: options.requestConcurrency } : {}),
    defaultConcurrency: Math.max(4, options.concurrency),
  }), roles);
  const modelId = modelIdOf(model);
  // As eval's: a directory of its own for another corpus file, settings or budget.
  const out = resolve(options.out ?? defaultRunDir('predict', { ...options, modelId, workflows: selected.map((s) => ({ id: s.entry.id, overrides: s.overrides })) }));
  writableDir(out, '--out');
  const settings = Object.fromEntries(selected.map((s) => [s.entry.id, s.settings]));

  const identity = { setting: options.setting, model: modelId, fingerprints: model.fingerprints, ...(options.budget ? { budget: options.budget } : {}), settings };
  const before = earlierRun(out);
  if (before) checkRun(out, before, { command: 'predict', ...identity }, roles);

  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db, corpus: options.corpus, layout: options.layout, skipInvalid: options.skipInvalid, goldOptional: true });
  let release: (() => void) | undefined;
  try {
    for (const notice of corpus.notices) io.err(notice);
    const offset = options.offset ?? 0;
    if (offset >= corpus.dataset.questions.length) throw new ConfigError(`--offset ${offset} skips every question: ${corpus.dataset.name} has ${corpus.dataset.questions.length}`);
    const questions = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length)).filter((q) => inPart(q.id, part));
    if (questions.length === 0) throw new ConfigError(`--part ${options.part}: no question of ${corpus.dataset.name} from #${offset + 1} falls in that part`);

    const run: PredictionRun = { command: 'predict', dataset: corpus.dataset.name, corpus: corpus.corpus, ...identity };
    const rowsFile = join(out, 'predictions.jsonl');
    const earlier = openDirectory(out, before, run);
    // One predict at a time in a directory: a second would run the pending pairs again, and pay for them.
    release = claimLock(out, 'predict');
    const done = new Map<string, PredictionRow>();
    for (const row of earlier) done.set(pairKey(row.workflow, row.questionId), row);
    const context: PairContext = { model, retrieverFor: corpus.retrieverFor.bind(corpus), dataset: corpus.dataset.name, ...(options.budget ? { budget: options.budget } : {}) };
    const pending: Array<{ workflow: EvaluatedWorkflow; question: Question }> = [];
    for (const question of questions) {
      for (const s of selected) {
        const last = done.get(pairKey(s.entry.id, question.id));
        if (!last || isRetryable(last)) pending.push({ workflow: { id: s.entry.id, workflow: s.workflow, settings: s.settings, overrides: s.overrides }, question });
      }
    }
    const total = questions.length * selected.length;
    const graded = questions.filter(hasGold).length;
    const searched = corpus.describe.setting;
    io.err(
      `predict: ${selected.map((s) => s.entry.id).join(', ')} on ${questions.length} ${corpus.dataset.name} questions${graded ? ` (${graded} with gold answers, not scored here: multihop eval scores them)` : ' (no gold answers: nothing is scored)'}, ` +
        `${searched === 'closed-book' ? 'closed-book (nothing to search: give --corpus FILE)' : `${searched} setting, corpus ${corpus.corpus}`}, model: ${model.label}`,
    );
    io.err(`      ${total - pending.length} of ${total} pairs already in ${relative(process.cwd(), out) || '.'}; ${pending.length} to run, ${options.concurrency} at a time`);

    let stopping = false;
    const onSigint = () => {
      if (stopping) process.exit(130);
      stopping = true;
      io.err('\npredict: stopping after the pairs in flight (Ctrl-C again to quit now); re-run the same command to resume');
    };
    process.on('SIGINT', onSigint);
    const progress = new Progress(pending.length, 'predict');
    try {
      await runPool(
        pending,
        options.concurrency,
        async ({ workflow, question }) => {
          const { row, trace } = await answerPair(context, workflow, question);
          writeTrace(out, row.trace, trace); // the trace file is written before its line, as eval's
          onPath(rowsFile, () => appendFileSync(rowsFile, `${JSON.stringify(row)}\n`));
          done.set(pairKey(workflow.id, question.id), row);
          progress.tick(`${workflow.id} ${question.id}`);
        },
        () => stopping,
      );
    } finally {
      process.off('SIGINT', onSigint);
    }

    const rows = questions.flatMap((q) => selected.flatMap((s) => done.get(pairKey(s.entry.id, q.id)) ?? []));
    const summaries = selected.map((s) => summarizePredictions(s.entry.id, rows.filter((r) => r.workflow === s.entry.id)));
    makeDirectory(join(out, 'answers'));
    for (const s of selected) {
      const answers = Object.fromEntries(rows.filter((r) => r.workflow === s.entry.id && r.status !== 'error').map((r) => [r.questionId, r.prediction]));
      writeFileWhole(join(out, 'answers', `${s.entry.id.replace(/[^\w.=,-]+/g, '_')}.json`), `${JSON.stringify(answers, null, 2)}\n`);
    }
    // A pair that failed for a reason a re-run may mend (an outage) has no answer yet: the directory is not done.
    const retryable = rows.filter(isRetryable);
    const incomplete = stopping || rows.length < total || retryable.length > 0;
    const summary = { ...run, searched, model_label: model.label, offline: model.offline, questions: questions.length, with_gold: graded, pairs: rows.length, retryable: retryable.length, incomplete, workflows: summaries };
    writeFileWhole(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const markdown = renderPredictions(summary, retryable);
    writeFileWhole(join(out, 'summary.md'), markdown);
    if (options.json) io.out(JSON.stringify(summary, null, 2));
    else io.out(markdown);
    io.err(`predict: wrote ${relative(process.cwd(), out) || '.'}/predictions.jsonl, answers/, summary.json, summary.md and traces/`);
    if (retryable.length) io.err(`predict: ${retryFailures(retryable)}`);
    if (stopping) return 130;
    return rows.some((r) => r.status !== 'error') ? 0 : 1;
  } finally {
    release?.();
    corpus.close();
  }
}

const pairKey = (workflow: string, questionId: string) => `${workflow}\u0000${questionId}`;

/** The run.json a predictions directory holds, if any (refusing a directory of another command). */
function earlierRun(out: string): Partial<PredictionRun> | undefined {
  const runFile = join(out, 'run.json');
  if (!existsSync(runFile)) return undefined;
  let before: Partial<PredictionRun>;
  try {
    before = JSON.parse(readFileSync(runFile, 'utf8')) as Partial<PredictionRun>;
  } catch (error) {
    throw new ConfigError(`${runFile}: not JSON (${(error as Error).message}); use another --out`);
  }
  // An eval's run.json names no command (eval and sweep wrote theirs before predict existed).
  if (before.command !== 'predict') throw new ConfigError(`${out} holds ${before.command ? `a ${before.command} directory` : 'an eval (multihop eval or sweep)'}, not predictions: use another --out`);
  return before;
}

/**
 * Refuses a directory made otherwise, what can be told before the corpus opens (an ingest can take
 * minutes): the setting, the model and its providers' settings, the budget, a workflow's settings.
 */
function checkRun(out: string, before: Partial<PredictionRun>, run: Omit<PredictionRun, 'dataset' | 'corpus'>, roles: ReadonlySet<string> | undefined): void {
  for (const field of ['setting', 'model'] as const) {
    // The model of the roles these workflows call: a per-role model for another method's role may come and go.
    const differs = field === 'model' && before.model !== undefined ? fingerprintChanges(parseModelId(before.model), parseModelId(run.model), roles).length > 0 : (before[field] ?? null) !== (run[field] ?? null);
    if (differs) {
      throw new ConfigError(`${out} holds predictions made with ${field} ${JSON.stringify(before[field] ?? null)}, not ${JSON.stringify(run[field] ?? null)}: use another --out, or the same ${field}`);
    }
  }
  if (JSON.stringify(before.budget ?? null) !== JSON.stringify(run.budget ?? null)) {
    throw new ConfigError(`${out} holds predictions made under the budget ${describeBudget(before.budget)}, not ${describeBudget(run.budget)}: use another --out, or the same budget`);
  }
  // The same model id at another endpoint or temperature answers otherwise.
  const changed = before.fingerprints ? fingerprintChanges(before.fingerprints, run.fingerprints, roles) : [];
  if (changed.length) throw new ConfigError(`${out} holds predictions of model "${run.model}" set up otherwise: ${changed.join('; ')}; use another --out, or the same endpoint and settings`);
  for (const [workflow, settings] of Object.entries(run.settings)) {
    const earlier = before.settings?.[workflow];
    if (earlier && JSON.stringify(earlier) !== JSON.stringify(settings)) {
      throw new ConfigError(`${out} holds predictions of ${workflow} with settings ${JSON.stringify(earlier)}, not ${JSON.stringify(settings)}: use another --out`);
    }
  }
}

/**
 * The directory's earlier predictions, once its questions and corpus are known to be these: the
 * dataset's name and the corpus table, whose name carries the content hashes of the question file
 * and the corpus file (another file of the same name, or one edited since, is another table).
 */
function openDirectory(out: string, before: Partial<PredictionRun> | undefined, run: PredictionRun): PredictionRow[] {
  if (before) {
    for (const field of ['dataset', 'corpus'] as const) {
      if ((before[field] ?? null) !== (run[field] ?? null)) {
        throw new ConfigError(`${out} holds predictions made with ${field} ${JSON.stringify(before[field] ?? null)}, not ${JSON.stringify(run[field] ?? null)}: use another --out, or the same ${field === 'corpus' ? 'question and corpus files' : field}`);
      }
    }
    run = { ...run, settings: { ...before.settings, ...run.settings } };
  }
  makeDirectory(out);
  writeFileWhole(join(out, 'run.json'), `${JSON.stringify(run, null, 2)}\n`);
  return readJsonlLog<PredictionRow>(join(out, 'predictions.jsonl'), ['workflow', 'questionId', 'status']);
}

export function summarizePredictions(workflow: string, rows: readonly PredictionRow[]): PredictionSummary {
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const latencies = rows.map((r) => r.latencyMs).sort((a, b) => a - b);
  const stopped: Record<string, number> = {};
  for (const r of rows) if (r.stopReason) stopped[r.stopReason] = (stopped[r.stopReason] ?? 0) + 1;
  return {
    workflow,
    n: rows.length,
    status: { ok: rows.filter((r) => r.status === 'ok').length, partial: rows.filter((r) => r.status === 'partial').length, error: rows.filter((r) => r.status === 'error').length },
    stopped_early: stopped,
    llm_calls: mean(rows.map((r) => r.usage.llmCalls)),
    tokens: mean(rows.map((r) => totalTokens(r.usage))),
    tokens_estimated: rows.some((r) => r.usage.estimated),
    latency_ms_p50: latencies.length ? latencies[Math.floor((latencies.length - 1) / 2)]! : 0,
  };
}

/** `3 pairs failed for a reason a re-run may mend (PROVIDER 3), so their answers are missing: re-run the same command to run them again`. */
function retryFailures(rows: readonly PredictionRow[]): string {
  const codes = new Map<string, number>();
  for (const row of rows) codes.set(row.errorCode ?? 'UNKNOWN', (codes.get(row.errorCode ?? 'UNKNOWN') ?? 0) + 1);
  const counted = [...codes].map(([code, n]) => `${code} ${n}`).join(', ');
  return `${rows.length} pair${rows.length === 1 ? '' : 's'} failed for a reason a re-run may mend (${counted}), so ${rows.length === 1 ? 'its answer is' : 'their answers are'} missing from answers/: re-run the same command to run ${rows.length === 1 ? 'it' : 'them'} again${firstError(rows)}`;
}

function renderPredictions(summary: { dataset: string; setting: string; searched: string; model_label: string; offline: boolean; questions: number; with_gold: number; incomplete: boolean; workflows: PredictionSummary[] }, retryable: readonly PredictionRow[]): string {
  const estimated = summary.workflows.some((w) => w.tokens_estimated);
  const lines = [
    `# Predictions: ${summary.dataset} (${summary.searched === 'closed-book' ? 'closed-book: the questions searched nothing' : summary.setting})`,
    '',
    `**Model**: ${summary.model_label}${summary.offline ? '. These are the offline model\'s answers and figures, not a language model\'s.' : ''}`,
    '',
    `${summary.questions} questions; ${summary.with_gold ? `${summary.with_gold} ${summary.with_gold === 1 ? 'has a gold answer' : 'have gold answers'}, which this command does not score (\`multihop eval\` does)` : 'none has a gold answer'}. Nothing is judged; answers are in answers/<workflow>.json.${summary.incomplete ? ' **Incomplete**: re-run the same command to finish.' : ''}`,
    '',
    ...(retryable.length ? [`**Failed, to run again**: ${retryFailures(retryable)}.`, ''] : []),
    '| workflow | n | ok/partial/error | stopped early | LLM calls/q | tokens/q | latency p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...summary.workflows.map((w) => {
      const stopped = Object.entries(w.stopped_early).map(([reason, n]) => `${reason} ${n}`).join(', ') || '—';
      return `| ${w.workflow} | ${w.n} | ${w.status.ok}/${w.status.partial}/${w.status.error} | ${stopped} | ${w.llm_calls.toFixed(1)} | ${Math.round(w.tokens)}${w.tokens_estimated ? '*' : ''} | ${Math.round(w.latency_ms_p50)} |`;
    }),
    '',
  ];
  if (estimated) lines.push('\\* tokens estimated from the prompt and reply text: the model reported no usage.', '');
  return `${lines.join('\n')}`;
}
