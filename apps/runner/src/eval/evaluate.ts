import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { openCheckpointStore } from '@multihop/checkpoint';
import { ConfigError, writeFileWhole, type Budget, type Question, type RoutePrediction, type RunResult } from '@multihop/core';
import { inPart, parsePart } from '@multihop/datasets';
import { writable, writableDir, type Io } from '../io';
import { openCorpus, searchedCorpus, type OpenedCorpus, type Setting } from '../corpus';
import { rolesCalled, workflowDefinition } from '../methods';
import { modelFor, resolveModel, type RunnerModel } from '../model';
import { JudgeLog, judgeRetries } from './judging';
import { runPool } from './jsonl';
import { Progress } from './Progress';
import { ResultsLog } from './ResultsLog';
import { modelIdOf, runPair, settlePair, writeTrace, type EvaluatedWorkflow, type PairContext } from './runPair';
import { incompleteProgress, renderSummary, summarize, type CorpusSummary, type RowVerdict, type Summary, type SummaryContext } from './summarize';

const shortHash = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 8);

export type { EvaluatedWorkflow } from './runPair';

export interface EvaluationOptions {
  dataset: string;
  /** Skip the first `offset` questions (e.g. to report on the second half of a file tuned on its first). */
  offset?: number;
  limit?: number;
  /** `K/N`: only the questions whose id falls in part K of N (after offset and limit). */
  part?: string;
  concurrency: number;
  /**
   * The most model requests in flight at once (the workflows' and the judge's), winning over the
   * config file's `concurrency`: the CLI sets it to --concurrency when that is given. Absent: the
   * config file's, else max(4, concurrency).
   */
  requestConcurrency?: number;
  /** Each run's budget (--max-llm-calls, --max-tokens, --timeout); a run that reaches it is partial. */
  budget?: Budget;
  setting: Setting;
  model?: string;
  /** `offline` or `openai:<model>`; default: the model configuration's `judge` role. */
  judge?: string;
  out?: string;
  db?: string;
  cacheDir?: string;
  /** A corpus file searched instead of (open) or besides the dataset's own paragraphs. */
  corpus?: string;
  layout?: string;
  skipInvalid?: boolean;
  /**
   * `redis://HOST:PORT`: put the pairs on this BullMQ queue for `multihop worker` processes (on
   * this or any machine) instead of running them here; this process follows their progress and
   * writes the same files.
   */
  queue?: string;
  /** With `queue`: `postgres://...`, the store workers on other machines record into; default: the output directory. */
  store?: string;
  /** Print summary.json on stdout instead of the Markdown (progress stays on stderr). */
  json?: boolean;
}

/**
 * Runs every workflow on the same questions, K pairs at a time, appending one line per
 * question × workflow to results.jsonl as each finishes (after its trace file is written); then
 * has the judge score every answer it has not scored (judgements.jsonl); then writes
 * summary.json and summary.md. Re-running with the same --out skips finished pairs and judged
 * answers; Ctrl-C stops scheduling, lets the pairs in flight finish, and writes the summary of
 * what is done.
 */
export async function evaluate(
  io: Io,
  command: 'eval' | 'sweep',
  workflows: readonly EvaluatedWorkflow[],
  options: EvaluationOptions,
  extra: { sweep?: Summary['sweep'] } = {},
): Promise<number> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got ${options.concurrency}`);
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ConfigError(`--limit must be a positive integer, got ${options.limit}`);
  if (options.offset !== undefined && (!Number.isInteger(options.offset) || options.offset < 0)) throw new ConfigError(`--offset must be a non-negative integer, got ${options.offset}`);
  const part = options.part !== undefined ? parsePart(options.part) : undefined;
  // A cache path through a file, or one that cannot be written, would fail every pair: one line now, before any runs.
  if (options.cacheDir !== undefined) writableDir(options.cacheDir, '--cache');
  // Under --judge the configuration's judge role is not built for the runs (which never call it), nor its key asked for.
  // The model as these workflows' runs see it: a per-role model no one of them calls is not part of the eval's model.
  const roles = rolesCalled(workflows.map((w) => w.workflow));
  const model = modelFor(resolveModel(options.model, { cacheDir: options.cacheDir, ...requestLimit(options), ...judgeFlag(options) }), roles);
  if (options.store !== undefined && options.queue === undefined) throw new ConfigError('--store is where queue workers record results: give it with --queue redis://HOST:PORT');
  const modelId = modelIdOf(model);
  const settings = Object.fromEntries(workflows.map((w) => [w.id, w.settings]));
  const out = resolve(options.out ?? defaultRunDir(command, { ...options, modelId, workflows }));

  // The output directory (and a results.jsonl already in it) must take writes before any pair runs.
  writableDir(out, '--out');
  if (existsSync(join(out, 'results.jsonl'))) writable(join(out, 'results.jsonl'), '--out', out);

  if (options.queue !== undefined) {
    // Before the corpus is opened (an ingest can take minutes): a bad URL or a server that is down is one line now.
    const { checkRedis, parseQueueUrl } = require('../queue/redis') as typeof import('../queue/redis');
    const { openStore, parseStoreUrl } = require('../queue/store') as typeof import('../queue/store');
    const store = options.store !== undefined ? parseStoreUrl(options.store) : undefined;
    await checkRedis(parseQueueUrl(options.queue));
    if (store) await (await openStore(store)).close();
  }
  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db, corpus: options.corpus, layout: options.layout, skipInvalid: options.skipInvalid });
  let log: ResultsLog | undefined;
  try {
    const described = corpusSummary(corpus);
    for (const notice of corpus.notices) io.err(notice);
    const offset = options.offset ?? 0;
    if (offset >= corpus.dataset.questions.length) {
      throw new ConfigError(`--offset ${offset} skips every question: ${corpus.dataset.name} has ${corpus.dataset.questions.length}`);
    }
    const questions = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length)).filter((q) => inPart(q.id, part));
    if (questions.length === 0) throw new ConfigError(`--part ${options.part}: no question of ${corpus.dataset.name} from #${offset + 1} falls in that part`);
    // The judge is set up before any pair runs (and before the directory is written): a mistyped
    // --judge must not cost a whole eval first.
    const judge = judgeModel(options, model, out);
    const warnings = routerWarnings(workflows, questions, corpus.dataset.name, modelId, described.setting);
    for (const warning of warnings) io.err(`${command}: warning: ${warning}`);
    const results = ResultsLog.open(out, {
      dataset: corpus.dataset.name,
      ...(corpus.dataset.sourceSha1 ? { datasetSha1: corpus.dataset.sourceSha1 } : {}),
      setting: described.setting,
      model: modelId,
      ...(options.corpus ? { corpus: described.name } : {}),
      settings,
      fingerprints: model.fingerprints,
      ...(options.budget ? { budget: options.budget } : {}),
      ...(corpus.dataset.answerAliases ? { answerAliases: `${corpus.dataset.answerAliases.path}@${corpus.dataset.answerAliases.sha1}` } : {}),
      artifacts: Object.fromEntries(workflows.filter((w) => w.workflow.artifacts).map((w) => [w.id, { ...w.workflow.artifacts }])),
      definitions: Object.fromEntries(workflows.map((w) => [w.id, workflowDefinition(w.workflow)])),
    }, roles);
    log = results;
    const pending: Array<{ workflow: EvaluatedWorkflow; question: Question }> = [];
    for (const question of questions) {
      for (const workflow of workflows) if (!results.has(workflow.id, question.id)) pending.push({ workflow, question });
    }
    // Ctrl-C from here on stops scheduling and still writes the summary of what ran (marked incomplete).
    let stopping = false;
    let judging = false;
    const onSigint = () => {
      if (stopping) process.exit(130);
      stopping = true;
      io.err(
        judging
          ? `\n${command}: every run has finished; stopping the judging after the judge calls in flight (Ctrl-C again to quit now); re-run the same command to judge the rest`
          : `\n${command}: stopping after the pairs in flight (Ctrl-C again to quit now); re-run the same command to resume`,
      );
    };
    process.on('SIGINT', onSigint);
    const total = questions.length * workflows.length;
    io.err(`${command}: ${workflows.map((w) => w.id).join(', ')} on ${questions.length} ${corpus.dataset.name} questions${offset ? ` (from #${offset + 1})` : ''}${part ? ` (part ${part.part} of ${part.of} by id)` : ''} (${describeRetrieval(described)}), model: ${model.label}`);
    if (options.queue === undefined) {
      io.err(`      ${total - pending.length} of ${total} pairs already in ${relative(process.cwd(), out) || '.'}; ${pending.length} to run, ${options.concurrency} at a time`);
    }

    const context: PairContext = { model, retrieverFor: corpus.retrieverFor.bind(corpus), dataset: corpus.dataset.name, ...(options.budget ? { budget: options.budget } : {}) };
    let failed = 0;
    try {
      if (options.queue === undefined) {
        // Pairs checkpoint into the eval directory: one cut short by a crash resumes mid-run on the next run of the command.
        const checkpointsFile = join(out, 'checkpoints.sqlite');
        if (pending.length || existsSync(checkpointsFile)) context.checkpoints = await openCheckpointStore(checkpointsFile);
        // A pair recorded just before a crash (its line appended, its thread not yet settled) is
        // settled now, or its checkpoints would stay in the store for good (a delete per recorded pair; cheap, as an empty one is).
        if (context.checkpoints) for (const row of results.rows) await settlePair(context, row);
        const progress = new Progress(pending.length, command);
        // Runs never throw (failures come back as results); an error here is the log or the disk.
        await runPool(
          pending,
          options.concurrency,
          async ({ workflow, question }) => {
            const { row, trace } = await runPair(context, workflow, question);
            writeTrace(out, row.trace, trace); // the trace file is written before its results line
            results.append(row);
            // A failure that may pass on a re-run keeps the pair's journal of completed calls: the re-run gets them back, not paid again.
            await settlePair(context, row);
            progress.tick(`${workflow.id} ${question.id}`);
          },
          () => stopping,
        );
      } else {
        const { dispatchPairs } = require('../queue/dispatch') as typeof import('../queue/dispatch');
        const queued = await dispatchPairs({
          io,
          command,
          queue: options.queue,
          store: options.store,
          out,
          spec: {
            dataset: existsSync(options.dataset) ? resolve(options.dataset) : options.dataset,
            setting: options.setting,
            ...(options.corpus ? { corpus: resolve(options.corpus) } : {}),
            ...(options.layout ? { layout: options.layout } : {}),
            ...(options.skipInvalid ? { skipInvalid: true } : {}),
            ...(options.model ? { model: options.model } : {}),
            modelId,
            fingerprints: model.fingerprints,
            ...(roles ? { roles: [...roles].sort() } : {}),
            answerAliases: corpus.dataset.answerAliases?.sha1 ?? null,
            searched: searchedCorpus(corpus),
            ...(options.budget ? { budget: options.budget } : {}),
            ...(options.cacheDir ? { cacheDir: resolve(options.cacheDir) } : {}),
            ...(options.db ? { db: resolve(options.db) } : {}),
          },
          workflows,
          questions,
          results,
          stopped: () => stopping,
        });
        failed = queued.failed.length;
        for (const f of queued.failed.slice(0, 5)) io.err(`${command}: ${f.workflow} ${f.questionId} failed on the workers: ${f.reason}`);
        if (failed > 5) io.err(`${command}: ... and ${failed - 5} more pairs failed; re-run the same command to queue them again`);
        if (queued.byWorker.size) io.err(`${command}: run by ${queued.byWorker.size} worker${queued.byWorker.size === 1 ? '' : 's'}: ${[...queued.byWorker].map(([w, n]) => `${w} (${n})`).join(', ')}`);
      }

      // In question order, then workflow order: the summary (its seeded bootstrap intervals) must not
      // depend on the order the pairs happened to finish in (K at a time, or on several workers).
      const questionIndex = new Map(questions.map((q, i) => [q.id, i]));
      const workflowIndex = new Map(workflows.map((w, i) => [w.id, i]));
      const rows = results.rows
        .filter((r) => questionIndex.has(r.questionId) && workflowIndex.has(r.workflow))
        .sort((a, b) => questionIndex.get(a.questionId)! - questionIndex.get(b.questionId)! || workflowIndex.get(a.workflow)! - workflowIndex.get(b.workflow)!);
      const judgements = new JudgeLog(out, judge.key, judge.key !== judge.id ? judge.id : undefined);
      // A failed run has no answer to judge: summarize scores a failure of the workflow's own as wrong and leaves the others out.
      const answered = rows.filter((r) => r.status !== 'error');
      const toJudge = judgements.pending(answered);
      if (toJudge.length && !stopping) {
        io.err(`${command}: judging ${toJudge.length} answers with ${judge.label}`);
        const judged = new Progress(toJudge.length, 'judge');
        judging = true;
        await judgements.judgeAll(answered, judge.model.port, { concurrency: options.concurrency, stopped: () => stopping, onJudged: () => judged.tick('') });
      }
      const verdicts = new Map<string, RowVerdict>();
      // Of the answers judged: a failed run's draft may carry an old verdict (judged before a re-run
      // failed), which neither its score nor the judge's counts may use.
      for (const row of answered) {
        const v = judgements.verdict(row);
        if (v) {
          verdicts.set(`${row.workflow}\u0000${row.questionId}`, {
            correct: v.correct,
            ...(v.usage ? { promptTokens: v.usage.promptTokens, completionTokens: v.usage.completionTokens, estimated: v.usage.estimated, cached: v.usage.cached } : {}),
          });
        }
      }

      // Measures over a workflow's runs (not one run) read the runs back from their trace files.
      const aggregates: Record<string, Record<string, number>> = {};
      for (const workflow of workflows) {
        if (!workflow.aggregate) continue;
        const runs = rows.filter((r) => r.workflow === workflow.id).map((r) => JSON.parse(readFileSync(join(out, r.trace), 'utf8')) as RunResult);
        if (runs.length) aggregates[workflow.id] = workflow.aggregate(runs);
      }

      const aliases = corpus.dataset.answerAliases;
      const aliased = aliases ? new Set(aliases.questionIds) : undefined;
      const summary = summarize(rows, {
        dataset: corpus.dataset.name,
        ...(warnings.length ? { warnings } : {}),
        ...(aliases && aliased ? { answerAliases: { file: aliases.path, sha1: aliases.sha1, questions: questions.filter((q) => aliased.has(q.id)).length } } : {}),
        setting: described.setting,
        corpus: {
          ...described,
          ...unresolvedGoldOf(corpus.dataset.unresolvedGold, questions),
          ...(questions.every((q) => q.supportingIds.length === 0 && !corpus.dataset.unresolvedGold[q.id]?.length) ? { no_gold_passages: true as const } : {}),
        },
        model: model.label,
        offline: model.offline,
        offlinePartly: model.partlyOffline,
        judge: { model: judge.id, key: judge.key, label: judge.label, offline: judge.id === 'offline', verdicts },
        workflows: workflows.map((w) => w.id),
        questionIds: questions.map((q) => q.id),
        offset,
        ...(part ? { part } : {}),
        questions: new Map(questions.map((q) => [q.id, { ...(q.hops ? { hops: q.hops } : {}), ...(q.type ? { type: q.type } : {}) }])),
        settings,
        aggregates,
        ...(extra.sweep ? { sweep: extra.sweep } : {}),
        ...(options.budget ? { budget: options.budget } : {}),
        ...(await routerOf(workflows, questions, (line) => io.err(`${command}: ${line}`))),
        ...(stopping ? { stopped: true, unjudged: judgements.pending(answered).length } : {}),
      });
      const summaryFile = join(out, 'summary.json');
      const replaced = otherSelection(summaryFile, summary);
      writeFileWhole(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
      const markdown = renderSummary(summary);
      const markdownFile = join(out, 'summary.md');
      writeFileWhole(markdownFile, markdown);
      io.out(options.json ? JSON.stringify(summary, null, 2) : markdown);
      // After Ctrl-C nothing is judged (a judge model may take minutes): judgements.jsonl may not exist yet.
      const judged = existsSync(join(out, 'judgements.jsonl')) ? ' judgements.jsonl,' : '';
      io.err(`${command}: wrote ${join(out, 'results.jsonl')},${judged} summary.json, summary.md and traces/${stopping && summary.incomplete ? '; the answers not yet judged are judged when the same command is re-run' : ''}`);
      if (replaced) {
        io.err(`${command}: the summary replaced was of another selection (${replaced}); its pairs are kept here, so re-running that command writes it again at no cost, and --out keeps evals apart`);
      }
      const own = summary.failed.scored_as_wrong ?? 0;
      const succeeded = rows.length - summary.failed.runs;
      if (summary.failed.runs) {
        const codes = Object.entries(summary.failed.codes).map(([c, n]) => `${c} ${n}`).join(', ');
        const out = summary.failed.runs - own;
        io.err(
          `${command}: ${summary.failed.runs} of ${rows.length} runs FAILED (${codes})` +
            (own ? `; ${own} failed on the workflow's own account and score${own === 1 ? 's' : ''} as wrong` : '') +
            (out ? `; ${out} ${out === 1 ? 'is' : 'are'} left out of the metrics (the failed column)` : '') +
            `; ${summary.failed.retryable ? `re-run the same command to retry the ${summary.failed.retryable} that may pass now` : 'none of them is retryable: see their error in results.jsonl'}` +
            (summary.failed.setting_refused
              ? `; the server refused ${summary.failed.setting_refused.runs} for a setting the model configuration sends (\`${summary.failed.setting_refused.setting}\`): mend it in multihop.config.json (or the server) before the re-run`
              : '') +
            firstError(rows),
        );
      }
      const judgeFailures = [...judgements.failures(answered)];
      const unjudged = judgeFailures.reduce((n, [, k]) => n + k, 0);
      if (unjudged) {
        const retryable = judgeFailures.filter(([code]) => judgeRetries(code)).reduce((n, [, k]) => n + k, 0);
        io.err(
          `${command}: the judge (${judge.label}) gave no verdict on ${unjudged} of ${answered.length} answers (${judgeFailures.map(([c, n]) => `${c} ${n}`).join(', ')}); they are left out of correctness, each error in judgements.jsonl; ${retryable ? `re-run the same command to ask the judge again about the ${retryable} whose call failed` : judgeFailures.every(([code]) => code === 'MODEL_OUTPUT') ? 'its replies could not be read: see their raw text in judgements.jsonl' : 'none of them is retried by a re-run'}`,
        );
      }
      if (summary.incomplete?.judging) {
        io.err(`${command}: INCOMPLETE: every run finished (${rows.length} of ${total}), but the judging was interrupted with ${summary.incomplete.judging.unjudged} of ${answered.length} answers not yet judged; re-run the same command to judge the rest (no pair runs again)`);
      } else if (summary.incomplete) {
        io.err(`${command}: INCOMPLETE: ${incompleteProgress(summary.incomplete, questions.length)} (runs per workflow: ${Object.entries(summary.incomplete.runs).map(([id, n]) => `${id} ${n}`).join(', ')}); re-run the same command to finish`);
      }
      if (stopping) return 130;
      if (succeeded === 0) {
        io.err(`${command}: no pair succeeded${rows.length ? '' : ' (none ran)'}${own ? `: the summary scores the ${own} failed on the workflows' own account as wrong, and has no other figures` : ': the summary has no figures'}`);
        return 1;
      }
      // As with the runs: exit 1 when the judge judged none of the answers.
      if (unjudged && unjudged === answered.length) return 1;
    } finally {
      process.off('SIGINT', onSigint);
      await context.checkpoints?.close();
    }
    return failed ? 1 : 0;
  } finally {
    log?.close();
    corpus.close();
  }
}

/**
 * When the directory's summary (a shared default --out) is of other workflows or questions than
 * the one about to replace it: those, described; else undefined.
 */
function otherSelection(summaryFile: string, next: Summary): string | undefined {
  let before: Partial<Summary>;
  try {
    before = JSON.parse(readFileSync(summaryFile, 'utf8')) as Partial<Summary>;
  } catch {
    return undefined;
  }
  const selection = (s: Partial<Summary>) => ({ workflows: Object.keys(s.settings ?? {}), n: s.n, offset: s.offset ?? 0, part: s.part ?? null });
  const [a, b] = [selection(before), selection(next)];
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  return `${a.workflows.join(', ')} on ${a.n} questions${a.offset ? ` from #${a.offset + 1}` : ''}${a.part ? ` (part ${a.part.part} of ${a.part.of})` : ''}`;
}

/**
 * The judge: `--judge` when given (over a config file's `judge` role), else the run's own model
 * configuration under its `judge` role. Its replies are cached on disk (under --cache, else in
 * the output directory) unless the offline model judges, whose verdicts judgements.jsonl
 * already keeps.
 */
function judgeModel(options: EvaluationOptions, runModel: RunnerModel, out: string): { id: string; key: string; label: string; model: RunnerModel } {
  const offline = runModel.port.modelFor('judge') === 'offline';
  const model = offline ? runModel : resolveModel(options.model, { cacheDir: options.cacheDir ?? join(out, 'cache', 'judge'), ...requestLimit(options), ...judgeFlag(options) });
  const id = model.port.modelFor('judge');
  const label = id === 'offline' ? 'offline model (lexical judge: gold contained in the answer, or token F1 ≥ 0.6; not a language model)' : id;
  // The judge's verdicts are kept under its id, and under its set-up when that says more (another
  // endpoint or temperature under the same model name judges afresh instead of reusing verdicts).
  const fingerprint = model.judgeFingerprint;
  const key = fingerprint === id ? id : `${id}@${shortHash(fingerprint)}`;
  return { id, key, label, model };
}

/** `--judge` as the judge role's model, over a config file's `roles.judge`. */
function judgeFlag(options: Pick<EvaluationOptions, 'judge'>): { roleModels?: Record<string, { model: string; source: string }> } {
  return options.judge ? { roleModels: { judge: { model: options.judge, source: '--judge' } } } : {};
}

/** `; the first: <its error>`: what went wrong, so it can be mended before a re-run (a re-run alone may not). */
export function firstError(rows: ReadonlyArray<{ status: string; error?: string }>): string {
  const first = rows.find((r) => r.status === 'error' && r.error);
  if (!first) return '';
  const text = first.error!.split('\n')[0]!;
  return `; the first: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** The model port's limit on requests in flight: --concurrency when given, else the config file's, else max(4, K). */
function requestLimit(options: Pick<EvaluationOptions, 'concurrency' | 'requestConcurrency'>): { concurrency?: number; defaultConcurrency: number } {
  return { ...(options.requestConcurrency !== undefined ? { concurrency: options.requestConcurrency } : {}), defaultConcurrency: Math.max(4, options.concurrency) };
}

/**
 * What a router's own record says about this eval: trained on another model's runs (its
 * predictions are that model's), or on some of these questions (its figures there are not
 * held-out ones). One line each, for stderr and the summary.
 */
/**
 * Where a run of eval, sweep or predict goes when no --out is given: one directory per dataset,
 * setting, corpus file, model, settings changed from the paper's and budget, so runs made
 * otherwise never meet (and are never refused) in one directory.
 */
export function defaultRunDir(
  command: string,
  options: { dataset: string; setting: string; corpus?: string; budget?: Budget; modelId: string; workflows: ReadonlyArray<{ id: string; overrides: Record<string, unknown> }> },
): string {
  const overrides = Object.fromEntries(options.workflows.filter((w) => Object.keys(w.overrides).length).map((w) => [w.id, w.overrides]));
  const changed = Object.keys(overrides).length ? `-set-${shortHash(overrides)}` : '';
  // Runs under a budget are other runs: a budgeted run gets a default directory of its own.
  const budgeted = options.budget ? `-budget-${shortHash(options.budget)}` : '';
  const corpusPart = options.corpus ? `-corpus-${shortHash(resolve(options.corpus))}` : '';
  return join('.multihop', command, `${options.dataset.replace(/[^\w.-]+/g, '_')}-${options.setting}${corpusPart}-${options.modelId.replace(/[^\w.-]+/g, '_')}${changed}${budgeted}`);
}

function routerWarnings(workflows: readonly EvaluatedWorkflow[], questions: readonly Question[], dataset: string, modelId: string, setting: string): string[] {
  const warnings: string[] = [];
  for (const w of workflows) {
    const missing = w.workflow.notInstalled ?? [];
    if (missing.length) warnings.push(`${w.id} routes among ${w.workflow.candidates?.length ?? 0} of its file's candidates: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed here`);
    const trained = w.workflow.policy?.trainedOn;
    if (!trained) continue;
    // A router trained on several models' evals records them joined by commas; one of them running is no mismatch.
    const models = trained.model.split(',').filter(Boolean);
    if (models.length && !models.includes(modelId)) {
      warnings.push(`${w.id} was trained on evals of ${trained.model}, and this eval runs ${modelId}: its predictions of each candidate's quality and cost are the other model's (train one on this model's evals: docs/methods/router.md)`);
    }
    const ids = new Set(trained.questions.filter((q) => q.dataset === dataset).flatMap((q) => q.ids));
    const seen = questions.filter((q) => ids.has(q.id)).length;
    if (seen) warnings.push(`${seen} of these ${questions.length} questions were among ${w.id}'s training questions: its figures on them are not held-out ones`);
    if (trained.settings?.length && !trained.settings.includes(setting)) {
      warnings.push(`${w.id} was trained on evals in the ${trained.settings.join(' and ')} setting, and this eval runs in the ${setting} one: its predictions of each candidate's quality and cost are the other setting's`);
    }
  }
  return warnings;
}

/**
 * The first workflow that hands questions to others (the router), for the summary's oracle row;
 * with its policy's predictions on these questions, for its curve across λ.
 */
async function routerOf(workflows: readonly EvaluatedWorkflow[], questions: readonly Question[], warn: (line: string) => void): Promise<Pick<SummaryContext, 'router'>> {
  const router = workflows.find((w) => w.workflow.candidates?.length);
  if (!router) return {};
  let policy = router.workflow.policy;
  const predictions = new Map<string, readonly RoutePrediction[]>();
  try {
    // A router with embedding features embeds the questions its runs did not (an endpoint call each).
    if (policy) for (const q of questions) predictions.set(q.id, await policy.predict(q.text));
  } catch (error) {
    // The runs are done and scored: the summary is written without the curve, not lost.
    warn(`warning: ${router.id}'s curve across λ is left out: its policy could not predict (${(error as Error).message})`);
    policy = undefined;
  }
  return {
    router: {
      id: router.id,
      candidates: router.workflow.candidates!,
      ...(policy ? { policy: { lambda: policy.lambda, lambdas: policy.lambdas, predictions } } : {}),
    },
  };
}

/** What the summary says about the corpus searched. */
function corpusSummary(corpus: OpenedCorpus): CorpusSummary {
  const d = corpus.describe;
  return { setting: d.setting, name: d.corpus, passages: d.corpusSize, ...(d.source ? { source: d.source } : {}) };
}

/** The evaluated questions' gold titles that match no passage of the corpus, counted; nothing when there are none. */
function unresolvedGoldOf(unresolved: Record<string, string[]>, questions: ReadonlyArray<{ id: string }>): Pick<CorpusSummary, 'unresolved_gold'> {
  let count = 0;
  let titles = 0;
  for (const q of questions) {
    const missing = unresolved[q.id];
    if (missing?.length) {
      count++;
      titles += missing.length;
    }
  }
  return count ? { unresolved_gold: { questions: count, titles } } : {};
}

function describeRetrieval(c: CorpusSummary): string {
  return c.setting === 'closed-book' ? 'closed-book: nothing to retrieve' : `${c.setting}, ${c.passages} passages`;
}

