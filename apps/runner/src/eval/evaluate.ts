import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError, goldAnswers, type Question, type RunResult, type Workflow } from '@multihop/core';
import type { Io } from '../io';
import { openCorpus, type OpenedCorpus, type Setting } from '../corpus';
import { resolveModel, type RunnerModel } from '../model';
import { JudgeLog } from './judging';
import { runPool } from './jsonl';
import { Progress } from './Progress';
import { ResultsLog, type ResultRow } from './ResultsLog';
import { scoreRun } from './scoreRun';
import { renderSummary, summarize, type CorpusSummary, type RowVerdict, type Summary } from './summarize';

/** A file name for a question id: readable, and unique even when ids differ only in characters a file name cannot hold. */
function traceName(questionId: string): string {
  const safe = questionId.replace(/[^\w.-]+/g, '_');
  return safe === questionId ? `${safe}.json` : `${safe}-${createHash('sha1').update(questionId).digest('hex').slice(0, 8)}.json`;
}

const shortHash = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 8);

/** One workflow as an evaluation runs it: the id its rows carry, and its settings. */
export interface EvaluatedWorkflow {
  /** `par2-rag`, or for a sweep `par2-rag[hopBudget=7]`. */
  id: string;
  workflow: Workflow;
  settings: Record<string, unknown>;
  /** The settings the user changed from the paper's defaults (they name the default output directory). */
  overrides: Record<string, unknown>;
  /** The method's own per-question measures (the manifest entry's `score`). */
  score?: (result: RunResult, question: Question) => Record<string, number>;
  /** The method's measures over all of the workflow's runs (the manifest entry's `aggregate`). */
  aggregate?: (results: readonly RunResult[]) => Record<string, number>;
}

export interface EvaluationOptions {
  dataset: string;
  /** Skip the first `offset` questions (e.g. to report on the second half of a file tuned on its first). */
  offset?: number;
  limit?: number;
  concurrency: number;
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
  const model = resolveModel(options.model, { cacheDir: options.cacheDir, defaultConcurrency: Math.max(4, options.concurrency) });
  const modelId = [model.describe.default, ...Object.entries(model.describe.roles).map(([r, m]) => `${r}=${m}`)].join(';');
  const settings = Object.fromEntries(workflows.map((w) => [w.id, w.settings]));
  const overrides = Object.fromEntries(workflows.filter((w) => Object.keys(w.overrides).length).map((w) => [w.id, w.overrides]));
  const changed = Object.keys(overrides).length ? `-set-${shortHash(overrides)}` : '';
  const corpusPart = options.corpus ? `-corpus-${shortHash(resolve(options.corpus))}` : '';
  const out = resolve(
    options.out ??
      join('.multihop', command, `${options.dataset.replace(/[^\w.-]+/g, '_')}-${options.setting}${corpusPart}-${modelId.replace(/[^\w.-]+/g, '_')}${changed}`),
  );

  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db, corpus: options.corpus, layout: options.layout, skipInvalid: options.skipInvalid });
  let log: ResultsLog | undefined;
  try {
    const described = corpusSummary(corpus);
    for (const notice of corpus.notices) io.err(notice);
    const offset = options.offset ?? 0;
    if (offset >= corpus.dataset.questions.length) {
      throw new ConfigError(`--offset ${offset} skips every question: ${corpus.dataset.name} has ${corpus.dataset.questions.length}`);
    }
    const questions = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length));
    const results = ResultsLog.open(out, {
      dataset: corpus.dataset.name,
      setting: described.setting,
      model: modelId,
      ...(options.corpus ? { corpus: described.name } : {}),
      settings,
    });
    log = results;
    const pending: Array<{ workflow: EvaluatedWorkflow; question: Question }> = [];
    for (const question of questions) {
      for (const workflow of workflows) if (!results.has(workflow.id, question.id)) pending.push({ workflow, question });
    }
    const total = questions.length * workflows.length;
    io.err(`${command}: ${workflows.map((w) => w.id).join(', ')} on ${questions.length} ${corpus.dataset.name} questions${offset ? ` (from #${offset + 1})` : ''} (${describeRetrieval(described)}), model: ${model.label}`);
    io.err(`      ${total - pending.length} of ${total} pairs already in ${relative(process.cwd(), out) || '.'}; ${pending.length} to run, ${options.concurrency} at a time`);

    let stopping = false;
    const onSigint = () => {
      if (stopping) process.exit(130);
      stopping = true;
      io.err(`\n${command}: stopping after the pairs in flight (Ctrl-C again to quit now); re-run the same command to resume`);
    };
    process.on('SIGINT', onSigint);
    const progress = new Progress(pending.length, command);
    /** Runs one question × workflow pair; its trace file is written before its results line. */
    const runPair = async ({ workflow, question }: { workflow: EvaluatedWorkflow; question: Question }): Promise<void> => {
      // The run gets the query; the gold stays here, with the scorer.
      const query = { id: question.id, text: question.text, metadata: { dataset: corpus.dataset.name } };
      const result = await workflow.workflow.run(query, { model: model.port, retriever: corpus.retrieverFor(query) });
      const dir = workflow.id.replace(/[^\w.=,-]+/g, '_');
      const traceFile = join('traces', dir, traceName(question.id));
      mkdirSync(join(out, 'traces', dir), { recursive: true });
      writeFileSync(join(out, traceFile), JSON.stringify({ ...result, settings: workflow.settings, model: model.describe }));
      const row: ResultRow = {
        workflow: workflow.id,
        questionId: question.id,
        question: question.text,
        prediction: result.answer,
        gold: goldAnswers(question),
        status: result.status,
        ...(result.stopReason ? { stopReason: result.stopReason } : {}),
        ...(result.error ? { error: `${result.error.code}: ${result.error.message}`, errorCode: result.error.code } : {}),
        metrics: { ...scoreRun(result, question), ...(workflow.score ? { method: workflow.score(result, question) } : {}) },
        usage: result.usage,
        evidenceIds: result.evidenceIds,
        latencyMs: result.usage.wallMs,
        trace: traceFile,
      };
      results.append(row);
      progress.tick(`${workflow.id} ${question.id}`);
    };
    try {
      // Runs never throw (failures come back as results); an error here is the log or the disk.
      await runPool(pending, options.concurrency, runPair, () => stopping);

      const wanted = new Set(questions.map((q) => q.id));
      const ids = new Set(workflows.map((w) => w.id));
      const rows = results.rows.filter((r) => wanted.has(r.questionId) && ids.has(r.workflow));
      const judge = judgeModel(options, model, out);
      const judgements = new JudgeLog(out, judge.id);
      const toJudge = rows.filter((r) => !judgements.verdict(r));
      if (toJudge.length && !stopping) {
        io.err(`${command}: judging ${toJudge.length} answers with ${judge.label}`);
        const judged = new Progress(toJudge.length, 'judge');
        await judgements.judgeAll(rows, judge.model.port, { concurrency: options.concurrency, stopped: () => stopping, onJudged: () => judged.tick('') });
      }
      const verdicts = new Map<string, RowVerdict>();
      for (const row of rows) {
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

      const summary = summarize(results.rows, {
        dataset: corpus.dataset.name,
        setting: described.setting,
        corpus: described,
        model: model.label,
        offline: model.offline,
        judge: { model: judge.id, label: judge.label, offline: judge.id === 'offline', verdicts },
        workflows: workflows.map((w) => w.id),
        questionIds: questions.map((q) => q.id),
        offset,
        questions: new Map(questions.map((q) => [q.id, { ...(q.hops ? { hops: q.hops } : {}), ...(q.type ? { type: q.type } : {}) }])),
        settings,
        aggregates,
        ...(extra.sweep ? { sweep: extra.sweep } : {}),
      });
      writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
      const markdown = renderSummary(summary);
      writeFileSync(join(out, 'summary.md'), markdown);
      io.out(markdown);
      io.err(`${command}: wrote ${join(out, 'results.jsonl')}, judgements.jsonl, summary.json, summary.md and traces/`);
    } finally {
      process.off('SIGINT', onSigint);
    }
    return stopping ? 130 : 0;
  } finally {
    log?.close();
    corpus.close();
  }
}

/**
 * The judge: `--judge` when given, else the run's own model configuration under its `judge`
 * role. Its replies are cached on disk (under --cache, else in the output directory) unless
 * the offline model judges, whose verdicts judgements.jsonl already keeps.
 */
function judgeModel(options: EvaluationOptions, runModel: RunnerModel, out: string): { id: string; label: string; model: RunnerModel } {
  const offline = options.judge ? options.judge.trim() === 'offline' : runModel.port.modelFor('judge') === 'offline';
  const model = offline
    ? options.judge
      ? resolveModel(options.judge)
      : runModel
    : resolveModel(options.judge ?? options.model, { cacheDir: options.cacheDir ?? join(out, 'cache', 'judge'), defaultConcurrency: Math.max(4, options.concurrency) });
  const id = model.port.modelFor('judge');
  const label = id === 'offline' ? 'offline model (lexical judge: gold contained in the answer, or token F1 ≥ 0.6; not a language model)' : id;
  return { id, label, model };
}

/** What the summary says about the corpus searched. */
function corpusSummary(corpus: OpenedCorpus): CorpusSummary {
  const d = corpus.describe;
  return { setting: d.setting, name: d.corpus, passages: d.corpusSize, ...(d.source ? { source: d.source } : {}) };
}

function describeRetrieval(c: CorpusSummary): string {
  return c.setting === 'closed-book' ? 'closed-book: nothing to retrieve' : `${c.setting}, ${c.passages} passages`;
}
