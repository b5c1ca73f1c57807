import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { CheckpointStore, ThreadLease } from '@multihop/checkpoint';
import { goldAnswers, makeDirectory, writeFileWhole, type Budget, type ModelPort, type Question, type RetrieverPort, type RunResult, type Workflow, type WorkflowEntry } from '@multihop/core';
import { isRetryable, type ResultRow } from './ResultsLog';
import { scoreRun } from './scoreRun';

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
  /** `false`: the workflow never searches (the manifest entry's `searches`), so its runs get no retrieval scores. */
  searches?: boolean;
}

/** A workflow as the installed methods build it, under the id its rows carry (a sweep's label, or the workflow's own id). */
export function evaluatedWorkflow(id: string, selected: { workflow: Workflow; settings: Record<string, unknown>; overrides: Record<string, unknown>; entry: Pick<WorkflowEntry, 'score' | 'aggregate' | 'searches'> }): EvaluatedWorkflow {
  const { entry } = selected;
  return {
    id,
    workflow: selected.workflow,
    settings: selected.settings,
    overrides: selected.overrides,
    ...(entry.score ? { score: entry.score } : {}),
    ...(entry.aggregate ? { aggregate: entry.aggregate } : {}),
    ...(entry.searches === false ? { searches: false } : {}),
  };
}

/** What every pair of one evaluation shares: the model, the corpus, the dataset's name. */
export interface PairContext {
  model: { port: ModelPort; describe: { default: string; roles: Record<string, string> } };
  retrieverFor(query: { id: string; text: string; metadata?: Record<string, unknown> }): RetrieverPort;
  dataset: string;
  /**
   * Where the pairs' runs checkpoint (the eval directory's checkpoints.sqlite, or the shared
   * Postgres of queue workers): a pair cut short by a crash resumes mid-run when it runs again,
   * without repeating a completed model call. Once its result is recorded, settlePair drops the
   * pair's thread, or its engine checkpoints only.
   */
  checkpoints?: CheckpointStore;
  /** Each run's budget (--max-llm-calls, --max-tokens, --timeout). */
  budget?: Budget;
}

/** A pair's durable thread: unique within one results store (one eval directory, or one eval id in a shared store). */
export function pairThread(workflowId: string, questionId: string, evalId = ''): string {
  return `${evalId ? `${evalId}/` : ''}${workflowId}/${questionId}`;
}

/**
 * After a pair's result is recorded: a result to keep (an answer, a partial one, or a failure a
 * re-run would repeat) drops the pair's thread, checkpoints and journal. A failure that may pass on a re-run
 * (provider outage, abort, a full disk: isRetryable) keeps the thread's journal of completed
 * model calls, so the re-run gets each of them back instead of paying for it again; only its
 * engine checkpoints go, so the re-run starts the run over and replays the journalled calls up to
 * where it failed (threads of older versions hold a machine checkpointed in its failure state,
 * which would fail again).
 */
export async function settlePair(context: PairContext, row: Pick<ResultRow, 'workflow' | 'questionId' | 'status' | 'errorCode' | 'error' | 'errorStatus' | 'errorSetting'>, evalId?: string): Promise<void> {
  if (!context.checkpoints) return;
  const thread = pairThread(row.workflow, row.questionId, evalId);
  if (isRetryable(row)) await context.checkpoints.saver.deleteThread(thread);
  else await context.checkpoints.deleteThread(thread);
}

/** A finished pair: its results line and its trace (the file `row.trace` names, relative to the output directory). */
export interface PairOutcome {
  row: ResultRow;
  trace: Record<string, unknown>;
}

/**
 * Runs one question × workflow pair and scores it: the one place an evaluation runs a pair,
 * whether in `multihop eval`'s own process or in a `multihop worker` taking it from a queue.
 * The run gets the query (id, text, dataset name); the gold stays here, with the scorer. Runs
 * never throw (failures come back as results). Nothing is written: the caller records the
 * outcome (writeTrace, then the results line). `lease`, a worker's hold on the pair's thread,
 * fences the run's writes and stops it once the thread is lost to another worker.
 */
export async function runPair(context: PairContext, workflow: EvaluatedWorkflow, question: Question, evalId?: string, lease?: Pick<ThreadLease, 'signal' | 'durable'>): Promise<PairOutcome> {
  const { result, row, trace } = await answerPair(context, workflow, question, evalId, lease);
  const metrics = { ...scoreRun(result, question, workflow), ...(workflow.score ? { method: workflow.score(result, question) } : {}) };
  return { row: { ...row, gold: goldAnswers(question), metrics }, trace };
}

/**
 * Runs a pair and records what it did, scoring nothing: the run, its results line without gold and
 * metrics, and its trace. runPair scores it; `multihop predict` (questions without gold) keeps it so.
 */
export async function answerPair(
  context: PairContext,
  workflow: EvaluatedWorkflow,
  question: Question,
  evalId?: string,
  lease?: Pick<ThreadLease, 'signal' | 'durable'>,
): Promise<{ result: RunResult; row: Omit<ResultRow, 'gold' | 'metrics'>; trace: Record<string, unknown> }> {
  const query = { id: question.id, text: question.text, metadata: { dataset: context.dataset } };
  const durable = lease ? lease.durable() : context.checkpoints?.durable(pairThread(workflow.id, question.id, evalId));
  const signal = lease?.signal;
  const result = await workflow.workflow.run(query, {
    model: context.model.port,
    retriever: context.retrieverFor(query),
    ...(context.budget ? { budget: context.budget } : {}),
    ...(durable ? { durable } : {}),
    ...(signal ? { signal } : {}),
  });
  const row = {
    workflow: workflow.id,
    questionId: question.id,
    question: question.text,
    prediction: result.answer,
    status: result.status,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    ...errorFieldsOf(result.error),
    usage: result.usage,
    evidenceIds: result.evidenceIds,
    latencyMs: result.usage.wallMs,
    trace: traceFile(workflow.id, question.id),
  };
  return { result, row, trace: { ...result, settings: workflow.settings, model: context.model.describe } };
}

/**
 * A system error of the machine the pair ran on (a cache path through a file, a read-only or full
 * disk, a dropped connection) is recorded as ENVIRONMENT, not UNEXPECTED: like a provider outage,
 * it says nothing of the method, and a re-run after the fix retries the pair.
 */
export const ENVIRONMENT_ERRNO = /^(ENOTDIR|EISDIR|ENOENT|EACCES|EPERM|EROFS|ENOSPC|EDQUOT|EMFILE|ENFILE|EIO|EBUSY|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH)\b/;

/** A failed run's error as a results line records it: message, code, and the HTTP status and setting a provider named. */
export function errorFieldsOf(error: RunResult['error']): Pick<ResultRow, 'error' | 'errorCode' | 'errorStatus' | 'errorSetting'> {
  if (!error) return {};
  return {
    error: `${error.code}: ${error.message}`,
    errorCode: errorCodeOf(error),
    ...(error.status !== undefined ? { errorStatus: error.status } : {}),
    ...(error.setting !== undefined ? { errorSetting: error.setting } : {}),
  };
}

export function errorCodeOf(error: { code: string; message: string }): string {
  return error.code === 'UNEXPECTED' && ENVIRONMENT_ERRNO.test(error.message) ? 'ENVIRONMENT' : error.code;
}

/** `traces/<workflow>/<question>.json`, relative to the output directory. */
export function traceFile(workflowId: string, questionId: string): string {
  return join('traces', workflowId.replace(/[^\w.=,-]+/g, '_'), traceName(questionId));
}

/** Writes a pair's trace file under `out`, whole or not at all (a kill mid-write leaves no torn file). */
export function writeTrace(out: string, file: string, trace: unknown): void {
  const target = join(out, file);
  makeDirectory(dirname(target));
  writeFileWhole(target, JSON.stringify(trace));
}

/** A file name for a question id: readable, and unique even when ids differ only in characters a file name cannot hold. */
function traceName(questionId: string): string {
  const safe = questionId.replace(/[^\w.-]+/g, '_');
  return safe === questionId ? `${safe}.json` : `${safe}-${createHash('sha1').update(questionId).digest('hex').slice(0, 8)}.json`;
}

/**
 * The model a results directory's runs are for: the default model and each per-role model
 * (`offline`, `openai:gpt-4o;par2-esc=openai:o4-mini`). Not the judge's role: a run never calls
 * it, and the verdicts are kept by judge apart (directories written before kept it: `parseModelId`
 * drops it). An eval names only the roles its workflows call (`modelFor`).
 */
export function modelIdOf(model: { describe: { default: string; roles: Record<string, string> } }): string {
  return [model.describe.default, ...Object.entries(model.describe.roles).filter(([r]) => r !== 'judge').map(([r, m]) => `${r}=${m}`)].join(';');
}

/**
 * A model id's default model and per-role models, modelIdOf's inverse. A `judge=` part, which
 * directories written before modelIdOf left it out recorded, is dropped.
 */
export function parseModelId(modelId: string): { default: string; roles: Record<string, string> } {
  const [first = '', ...parts] = modelId.split(';');
  const roles: Record<string, string> = {};
  for (const part of parts) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at) !== 'judge') roles[part.slice(0, at)] = part.slice(at + 1);
  }
  return { default: first, roles };
}
