import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { InputError, type Chart } from '@multihop/core';
import type { Dataset } from '@multihop/datasets';
import { readJsonlLog } from '../eval/jsonl';
import { verdictIndex, type Judgement } from '../eval/judging';
import { latestRows, scoredAsWrong, scoredMetrics, type ResultRow } from '../eval/ResultsLog';
import { findWorkflow } from '../workflows';
import { PathRefused, type Roots } from './paths';
import type { StudioEval, StudioEvalListing, StudioEvalRow, StudioEvalSummary, StudioReplay, StudioTraceFile } from './protocol';

const SKIP = new Set(['node_modules', '.git', '.nx', 'traces', 'cache', 'dist']);
const DEPTH = 4;

/** Eval directories (a summary.json beside a results.jsonl) under the roots, a few levels down. */
export function listEvals(roots: Roots): StudioEvalListing {
  const evals: StudioEvalListing['evals'] = [];
  const walk = (dir: string, depth: number): void => {
    if (existsSync(join(dir, 'summary.json')) && existsSync(join(dir, 'results.jsonl'))) {
      let summary: Partial<StudioEvalSummary> = {};
      try {
        summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StudioEvalSummary;
      } catch {
        // listed without its figures; opening it says what is wrong
      }
      evals.push({
        dir: roots.display(dir),
        ...(summary.dataset ? { dataset: summary.dataset } : {}),
        ...(typeof summary.n === 'number' ? { n: summary.n } : {}),
        workflows: Object.keys(summary.workflows ?? {}),
        ...(summary.created ? { created: summary.created } : {}),
      });
    }
    if (depth >= DEPTH) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !SKIP.has(entry.name)) walk(join(dir, entry.name), depth + 1);
  };
  for (const root of roots.dirs) walk(root, 0);
  evals.sort((a, b) => (b.created ?? '').localeCompare(a.created ?? ''));
  return { roots: roots.dirs, evals };
}

/** One eval directory: its summary, its rows and its judge's verdicts (read only: nothing is repaired or written). */
export function readEval(roots: Roots, requested: string, shown: string = requested): StudioEval {
  const dir = roots.resolve(requested, 'dir');
  if (!statSync(dir).isDirectory()) throw new PathRefused(404, `dir ${shown} is not a directory`);
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile)) throw new PathRefused(404, `dir ${shown} has no summary.json: not an eval directory, or its eval has not finished (multihop eval ... --out ${shown} finishes it)`);
  let summary: StudioEvalSummary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as StudioEvalSummary;
  } catch {
    // Not the parser's message: it quotes the file's first characters.
    throw new PathRefused(422, `${join(shown, 'summary.json')}: not JSON`);
  }
  // The page draws from these two: a summary without them is not an eval's (a crash of the page otherwise).
  const shape = summary as unknown as Record<string, unknown> | null;
  if (shape && typeof shape === 'object' && shape['command'] === 'predict') {
    throw new PathRefused(
      422,
      `${join(shown, 'summary.json')}: a multihop predict directory (answers without gold: nothing scored, so no eval to draw); its answers are in predictions.jsonl and answers/<workflow>.json, and summary.md says how the runs ended`,
    );
  }
  if (!shape || typeof shape !== 'object' || Array.isArray(shape) || typeof shape['dataset'] !== 'string' || !isObject(shape['workflows'])) {
    throw new PathRefused(422, `${join(shown, 'summary.json')}: not an eval summary (it needs a dataset and a workflows object, as multihop eval writes)`);
  }
  const ids = shape['question_ids'];
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) {
    throw new PathRefused(422, `${join(shown, 'summary.json')}: question_ids must be a list of question ids (strings), as multihop eval writes`);
  }
  if (!existsSync(join(dir, 'results.jsonl'))) {
    throw new PathRefused(404, `dir ${shown} has a summary.json but no results.jsonl: its rows are gone (moved or deleted); multihop eval ... --out ${shown} runs them again`);
  }
  // The rows the summary scores: the latest line of each pair (a re-run supersedes a failed one), of
  // the summary's workflows and questions (a directory several evals share holds more). A failure
  // of the workflow's own scores as a wrong answer, as every figure of the summary counts it: its
  // answer metrics 0 (the draft's kept beside them) and, in a judged eval, the verdict wrong.
  const workflows = new Set(Object.keys(summary.workflows ?? {}));
  const questions = summary.question_ids ? new Set(summary.question_ids) : undefined;
  const scored = readLog<ResultRow>(dir, shown, 'results.jsonl', ['workflow', 'questionId']).filter((row) => workflows.has(row.workflow) && (!questions || questions.has(row.questionId)));
  const rows: StudioEvalRow[] = latestRows(scored).map((row) => (scoredAsWrong(row) ? { ...scoredMetrics(row), scoredAsWrong: true, draftMetrics: row.metrics } : row));
  // Each answer's verdict as the summary takes it: the summary's judge's, on this answer under this
  // judge prompt (judgeKey), its set-up's key before its bare model id (an eval written before keys
  // carried the judge's set-up). A judge error, an answer not judged yet and a failure left out of
  // the figures have none; a failure of the workflow's own is wrong.
  const verdicts: Record<string, 0 | 1> = {};
  const judges = [summary.judge?.key, summary.judge?.model].filter((j): j is string => j !== undefined);
  if (judges.length) {
    const verdictOn = verdictIndex(readLog<Judgement>(dir, shown, 'judgements.jsonl', ['workflow', 'questionId']), judges);
    for (const row of rows) {
      const pair = `${row.workflow}\u0000${row.questionId}`;
      if (row.scoredAsWrong) verdicts[pair] = 0;
      if (row.status === 'error') continue;
      const verdict = verdictOn(row);
      if (verdict?.correct === 0 || verdict?.correct === 1) verdicts[pair] = verdict.correct;
    }
  }
  return { dir: roots.display(dir), summary, rows, verdicts };
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An eval's JSONL log, read without repairing it. A malformed line is the eval's data, not a
 * defect of the server: 422, naming the file as the page names the directory (not its real path).
 */
function readLog<T>(dir: string, shown: string, name: string, required: readonly (keyof T & string)[]): T[] {
  const file = join(dir, name);
  try {
    return readJsonlLog<T>(file, required, { repair: false });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const { line, field } = error.location;
    throw new PathRefused(422, `${join(shown, name)}${line !== undefined ? `:${line}` : ''}: ${field !== undefined ? `field ${field} is missing` : 'not a JSON line'}`);
  }
}

/**
 * The gold passage ids of the eval's questions, read from its dataset (results.jsonl keeps the
 * gold answers only). Absent when the dataset cannot be read here: replays then mark no hit gold.
 */
export async function goldPassages(evaluation: StudioEval, load: (name: string) => Promise<Dataset>): Promise<Record<string, string[]> | undefined> {
  let dataset: Dataset;
  try {
    dataset = await load(evaluation.summary.dataset);
  } catch {
    return undefined;
  }
  const wanted = new Set(evaluation.rows.map((r) => r.questionId));
  return Object.fromEntries(dataset.questions.filter((q) => wanted.has(q.id)).map((q) => [q.id, q.supportingIds]));
}

/** One run of an eval, by its trace file (relative to the eval directory), with its chart. */
export function readEvalTrace(roots: Roots, dir: string, file: string): StudioReplay {
  const evalDir = roots.resolve(dir, 'dir');
  const path = roots.within(evalDir, file, 'file');
  return replayOf(path, file);
}

/** A saved trace anywhere under the roots: an eval's traces/ file or a `multihop run --json` output. */
export function readTrace(roots: Roots, requested: string): StudioReplay {
  return replayOf(roots.resolve(requested, 'path'), requested);
}

function replayOf(path: string, shown: string): StudioReplay {
  // A trace is a .json file; anything else under the roots (a .env, a key) is not read as one.
  if (extname(path).toLowerCase() !== '.json') throw new PathRefused(422, `${shown}: not a trace (a trace is a .json file: an eval's traces/ file or a run --json output)`);
  let run: StudioTraceFile;
  try {
    run = JSON.parse(readFileSync(path, 'utf8')) as StudioTraceFile;
  } catch {
    // Not the parser's message: it quotes the file's first characters.
    throw new PathRefused(422, `${shown}: not a JSON trace`);
  }
  if (!run || typeof run.workflowId !== 'string' || !Array.isArray(run.trace)) {
    throw new PathRefused(422, `${shown}: not a run's trace (a RunResult with workflowId and trace, as eval's traces/ files and run --json hold)`);
  }
  const { chart, warning } = chartFor(run.workflowId, run.settings);
  return { path: shown, run, chart, ...(warning ? { warning } : {}) };
}

/** The chart of a workflow as a run configured it (its recorded settings), else with the paper's defaults. */
export function chartOf(workflowId: string, settings: Record<string, unknown> | undefined): Chart {
  return chartFor(workflowId, settings).chart;
}

/**
 * chartOf, saying why when the chart is not the run's own: the trace records no settings (a
 * `run --json` output of an earlier release), or settings this installation refuses (another
 * version of the workflow), so the chart drawn is the one of the paper's defaults.
 */
export function chartFor(workflowId: string, settings: Record<string, unknown> | undefined): { chart: Chart; warning?: string } {
  const assignments = Object.entries(settings ?? {}).map(([key, value]) => ({ target: workflowId, key, value, where: `settings.${key}` }));
  let refused: string;
  try {
    const chart = findWorkflow(workflowId, assignments).workflow.chart();
    return settings === undefined ? { chart, warning: `the trace records no settings: the chart is ${workflowId}'s with its defaults, and a run configured otherwise may have taken steps it does not show` } : { chart };
  } catch (error) {
    refused = (error as Error).message.split('\n')[0]!;
  }
  try {
    return { chart: findWorkflow(workflowId).workflow.chart(), warning: `the trace's settings do not configure ${workflowId} here (${refused}): the chart is the one of its defaults` };
  } catch (error) {
    throw new PathRefused(404, `workflow ${workflowId} of this trace is not installed: ${(error as Error).message.split(';')[0]}`);
  }
}
