import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError, goldAnswers, type Question, type Workflow } from '@multihop/core';
import type { Io } from '../io';
import { openCorpus, type Setting } from '../corpus';
import { ResultsLog, type ResultRow } from '../eval/ResultsLog';
import { Progress } from '../eval/Progress';
import { scoreRun } from '../eval/scoreRun';
import { renderSummary, summarize } from '../eval/summarize';
import { resolveModel } from '../model';
import { parseWorkflowList } from '../workflows';

/** A file name for a question id: readable, and unique even when ids differ only in characters a file name cannot hold. */
function traceName(questionId: string): string {
  const safe = questionId.replace(/[^\w.-]+/g, '_');
  return safe === questionId ? `${safe}.json` : `${safe}-${createHash('sha1').update(questionId).digest('hex').slice(0, 8)}.json`;
}

export interface EvalCommandOptions {
  workflows: string;
  dataset: string;
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
  /** `<workflow or method>.<setting>=<value>`, validated by the workflow's settings schema. */
  set?: string[];
}

/**
 * Runs every workflow on the same questions, K pairs at a time, appending one line per
 * question × workflow to results.jsonl as each finishes (after its trace file is written).
 * Re-running with the same --out skips finished pairs; Ctrl-C stops scheduling, lets the pairs
 * in flight finish, and writes the summary of what is done.
 */
export async function evalCommand(io: Io, options: EvalCommandOptions): Promise<number> {
  const workflows = parseWorkflowList(options.workflows);
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new ConfigError(`--concurrency must be a positive integer, got ${options.concurrency}`);
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ConfigError(`--limit must be a positive integer, got ${options.limit}`);
  const model = resolveModel(options.model, { cacheDir: options.cacheDir, defaultConcurrency: Math.max(4, options.concurrency) });
  const modelId = [model.describe.default, ...Object.entries(model.describe.roles).map(([r, m]) => `${r}=${m}`)].join(';');
  const out = resolve(options.out ?? join('.multihop', 'eval', `${options.dataset.replace(/[^\w.-]+/g, '_')}-${options.setting}-${modelId.replace(/[^\w.-]+/g, '_')}`));

  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db });
  let log: ResultsLog | undefined;
  try {
    const questions = corpus.dataset.questions.slice(0, options.limit ?? corpus.dataset.questions.length);
    const results = ResultsLog.open(out, { dataset: corpus.dataset.name, setting: options.setting, model: modelId });
    log = results;
    const pending: Array<{ workflow: Workflow; question: Question }> = [];
    for (const question of questions) {
      for (const workflow of workflows) if (!results.has(workflow.id, question.id)) pending.push({ workflow, question });
    }
    const total = questions.length * workflows.length;
    io.err(`eval: ${workflows.map((w) => w.id).join(', ')} on ${questions.length} ${corpus.dataset.name} questions (${options.setting}), model: ${model.label}`);
    io.err(`      ${total - pending.length} of ${total} pairs already in ${relative(process.cwd(), out) || '.'}; ${pending.length} to run, ${options.concurrency} at a time`);

    let stopping = false;
    const onSigint = () => {
      if (stopping) process.exit(130);
      stopping = true;
      io.err('\neval: stopping after the pairs in flight (Ctrl-C again to quit now); re-run the same command to resume');
    };
    process.on('SIGINT', onSigint);
    const progress = new Progress(pending.length, 'eval');
    /** Runs one question × workflow pair; its trace file is written before its results line. */
    const runPair = async (workflow: Workflow, question: Question): Promise<void> => {
      // The run gets the query; the gold stays here, with the scorer.
      const query = { id: question.id, text: question.text, metadata: { dataset: corpus.dataset.name } };
      const result = await workflow.run(query, { model: model.port, retriever: corpus.retrieverFor(query) });
      const traceFile = join('traces', workflow.id, traceName(question.id));
      mkdirSync(join(out, 'traces', workflow.id), { recursive: true });
      writeFileSync(join(out, traceFile), JSON.stringify({ ...result, model: model.describe }));
      const row: ResultRow = {
        workflow: workflow.id,
        questionId: question.id,
        question: question.text,
        prediction: result.answer,
        gold: goldAnswers(question),
        status: result.status,
        ...(result.stopReason ? { stopReason: result.stopReason } : {}),
        ...(result.error ? { error: `${result.error.code}: ${result.error.message}`, errorCode: result.error.code } : {}),
        metrics: scoreRun(result, question),
        usage: result.usage,
        evidenceIds: result.evidenceIds,
        latencyMs: result.usage.wallMs,
        trace: traceFile,
      };
      results.append(row);
      progress.tick(`${workflow.id} ${question.id}`);
    };
    let next = 0;
    let failure: unknown;
    const worker = async () => {
      while (!stopping && failure === undefined && next < pending.length) {
        const { workflow, question } = pending[next++]!;
        try {
          await runPair(workflow, question);
        } catch (error) {
          // Runs never throw (failures come back as results); this is the log or the disk. Stop
          // scheduling, let the other workers finish their pairs, then report it.
          failure ??= error;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(1, pending.length)) }, worker));
    } finally {
      process.off('SIGINT', onSigint);
    }
    if (failure !== undefined) throw failure;

    const summary = summarize(results.rows, {
      dataset: corpus.dataset.name,
      setting: options.setting,
      model: model.label,
      offline: model.offline,
      workflows: workflows.map((w) => w.id),
      questionIds: questions.map((q) => q.id),
    });
    writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const markdown = renderSummary(summary);
    writeFileSync(join(out, 'summary.md'), markdown);
    io.out(markdown);
    io.err(`eval: wrote ${join(out, 'results.jsonl')}, summary.json, summary.md and traces/`);
    return stopping ? 130 : 0;
  } finally {
    log?.close();
    corpus.close();
  }
}
