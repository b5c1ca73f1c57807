import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, InputError, makeDirectory, processAlive, totalTokens, writeFileWhole, type Budget, type Usage } from '@multihop/core';
import { onPath } from '../io';
import { checkJsonlLog } from './jsonl';
import { ENVIRONMENT_ERRNO, parseModelId } from './runPair';

export interface RowMetrics {
  em: number;
  f1: number;
  acc: number;
  /** null when the question has no gold passage ids. */
  recall_at_5: number | null;
  full_recall_at_5: number | null;
  ndcg_at_5: number | null;
  /** Every gold passage somewhere in the run's evidence. */
  all_pass: number | null;
  /** The method's own measures (its manifest entry's `score`), e.g. MAO-ARAG's reward `R`. */
  method?: Record<string, number>;
}

/** One line of results.jsonl: one question × one workflow. */
export interface ResultRow {
  workflow: string;
  questionId: string;
  question: string;
  prediction: string;
  gold: string[];
  status: 'ok' | 'partial' | 'error';
  stopReason?: string;
  error?: string;
  /** The error's code (PROVIDER, MODEL_OUTPUT, ...), so a resume can tell a passing outage from a result. */
  errorCode?: string;
  /** A PROVIDER error's HTTP status, when the server answered with one. */
  errorStatus?: number;
  /** The request setting a 400 named (temperature, max_tokens, ...): the configuration's failure, not the workflow's. */
  errorSetting?: string;
  metrics: RowMetrics;
  usage: Usage;
  evidenceIds: string[];
  latencyMs: number;
  /** The run's full trace, relative to the output directory. */
  trace: string;
}

/** A row's tokens: prompt plus completion. */
export function rowTokens(row: Pick<ResultRow, 'usage'>): number {
  return totalTokens(row.usage);
}

/** What a results directory was made with; a resume must match it. */
export interface RunConfig {
  dataset: string;
  setting: string;
  model: string;
  /** The corpus searched (its table name), when not the dataset's own. */
  corpus?: string;
  /**
   * The sha1 of the question file's text (as read, UTF-8), for a file given by path: another file of the same name
   * (two `dev.json`), or the file edited, is refused. Absent for a shared dataset and from
   * directories written before it was recorded.
   */
  datasetSha1?: string;
  /** Each workflow's settings (by the id its rows carry): a resume must run them the same way. */
  settings?: Record<string, Record<string, unknown>>;
  /**
   * What each provider answering for `model` was set up with (Provider.fingerprint: base URL,
   * temperature, token limit, JSON mode; no key): a resume against another endpoint or
   * temperature is refused, as another model is. Absent from directories written before it was recorded.
   */
  fingerprints?: { default: string; roles: Record<string, string> };
  /** Each run's budget (--max-llm-calls, --max-tokens, --timeout); absent: none. A resume must use the same. */
  budget?: Budget;
  /** The id-aliases file whose aliases joined the gold answers (`path@sha1`), if any: rows are scored against them, so a resume must use the same. */
  answerAliases?: string;
  /** The files each workflow was built from (Workflow.artifacts: path → sha1): a resume after one was rewritten is refused. Absent from directories written before. */
  artifacts?: Record<string, Record<string, string>>;
  /**
   * Each workflow's definition (`workflowDefinition`: its chart and its method's prompt versions):
   * a resume after the method changed is refused, as its runs here are the old method's. Absent
   * from directories written before.
   */
  definitions?: Record<string, string>;
}

/**
 * Failures of the infrastructure, not of the method: a resume runs these pairs again. ENVIRONMENT
 * is a system error of the machine (file system, cache, network; see runPair's errorCodeOf).
 */
export const RETRYABLE = new Set(['PROVIDER', 'ABORTED', 'SEARCH', 'ENVIRONMENT']);

/**
 * HTTP statuses with which a server rejects the request itself (400 bad request, such as a
 * prompt over the context length; 413 too large; 422 unprocessable): a re-run sends the same
 * request and fails the same way. Other provider failures (an outage, a 429, and a 401 or 404 a
 * corrected key or model name mends) are retried.
 */
export const REQUEST_REJECTED = new Set([400, 413, 422]);

/** True when a failed row may pass on a re-run: its code is retryable, or (a row written before ENVIRONMENT existed) an UNEXPECTED system error. */
export function isRetryable(row: Pick<ResultRow, 'status' | 'errorCode' | 'error' | 'errorStatus' | 'errorSetting'>): boolean {
  if (row.status !== 'error') return false;
  if (rejectedRequest(row)) return false;
  if (RETRYABLE.has(row.errorCode ?? '')) return true;
  return row.errorCode === 'UNEXPECTED' && ENVIRONMENT_ERRNO.test((row.error ?? '').replace(/^UNEXPECTED: /, ''));
}

/**
 * The failures that are the workflow's own: its model's reply broke the schema past the repair
 * round (MODEL_OUTPUT), its plan was invalid (PLAN), it looped past its step limit (STEP_LIMIT), or
 * (PROVIDER with a REQUEST_REJECTED status) the server refused its request, a prompt over the
 * context length. Any other failure (an outage, a damaged store, a bad configuration, a bug) says
 * nothing about how the workflow answers the question.
 */
export const WORKFLOW_OWN = new Set(['MODEL_OUTPUT', 'PLAN', 'STEP_LIMIT']);

/**
 * A failed run whose failure is the workflow's own (WORKFLOW_OWN): it answered nothing, and scores
 * as a wrong answer in every figure (answer metrics and Correct 0: scoredMetrics), with the tokens it
 * spent. Other failures are left out of the figures, counted apart; those that may pass
 * (isRetryable) run again on a re-run.
 */
export function scoredAsWrong(row: Pick<ResultRow, 'status' | 'errorCode' | 'error' | 'errorStatus' | 'errorSetting'>): boolean {
  if (row.status !== 'error') return false;
  return rejectedRequest(row) || WORKFLOW_OWN.has(row.errorCode ?? '');
}

/**
 * A provider failure whose server refused the request itself (REQUEST_REJECTED): the same request
 * fails the same way. Not one that names a setting the configuration sends (errorSetting: a
 * temperature the model does not take): that says nothing of the workflow, and a mended
 * configuration or server passes.
 */
function rejectedRequest(row: Pick<ResultRow, 'errorCode' | 'errorStatus' | 'errorSetting'>): boolean {
  return row.errorCode === 'PROVIDER' && row.errorStatus !== undefined && REQUEST_REJECTED.has(row.errorStatus) && row.errorSetting === undefined;
}

/** A row as the figures score it: a failure of the workflow's own answered nothing (EM, F1 and Acc 0; its retrieval as it was). */
export function scoredMetrics<T extends Pick<ResultRow, 'status' | 'errorCode' | 'error' | 'errorStatus' | 'errorSetting' | 'metrics'>>(row: T): T {
  return scoredAsWrong(row) ? { ...row, metrics: { ...row.metrics, em: 0, f1: 0, acc: 0 } } : row;
}

/** The latest line of each question × workflow pair (a re-run's line supersedes a failed one), in the order the pairs first appear. */
export function latestRows<T extends Pick<ResultRow, 'workflow' | 'questionId'>>(rows: Iterable<T>): T[] {
  const latest = new Map<string, T>();
  for (const row of rows) latest.set(key(row.workflow, row.questionId), row);
  return [...latest.values()];
}

/**
 * results.jsonl, append-only. Opening it repairs a line torn by a kill mid-write (the tail after
 * the last newline is dropped: that pair simply runs again), so a resumed evaluation neither
 * loses nor duplicates finished pairs. A pair that failed for a passing reason (provider down,
 * aborted) runs again on resume and its new line supersedes the old one. A malformed line is an
 * error naming the file, the line and the field.
 */
export class ResultsLog {
  private readonly latest = new Map<string, ResultRow>();

  private constructor(
    readonly dir: string,
    readonly file: string,
    rows: ResultRow[],
  ) {
    for (const row of rows) this.latest.set(key(row.workflow, row.questionId), row);
  }

  /** The latest line of every pair. */
  get rows(): ResultRow[] {
    return [...this.latest.values()];
  }

  /**
   * `roles`: the roles this eval's workflows call (`rolesCalled`). A resume compares the model of
   * those roles and the default model, not a per-role model of a role none of them calls (an
   * entry added to the config file for another method). Undefined: every role.
   */
  static open(dir: string, config: RunConfig, roles?: ReadonlySet<string>): ResultsLog {
    // Everything is checked before anything is written: a directory refused is left as it was.
    const configFile = join(dir, 'run.json');
    let previous: RunConfig | undefined;
    if (existsSync(configFile)) {
      try {
        previous = JSON.parse(readFileSync(configFile, 'utf8')) as RunConfig;
      } catch (error) {
        throw new InputError(`${configFile}: not valid JSON (${(error as Error).message}); delete it or use another --out`, { file: configFile });
      }
      // What kind of directory it is comes before how it was made.
      const command = (previous as { command?: unknown }).command;
      if (command !== undefined) throw new ConfigError(`${dir} holds ${command === 'predict' ? 'predictions (multihop predict)' : `a ${String(command)} directory`}, not an eval: use another --out`);
      for (const field of ['dataset', 'setting', 'model', 'corpus'] as const) {
        const changed = field === 'model' ? fingerprintChanges(parseModelId(previous.model), parseModelId(config.model), roles) : [];
        if (field === 'model' ? changed.length : previous[field] !== config[field]) {
          throw new ConfigError(
            `${configFile}: this directory holds results for ${field} "${previous[field] ?? '(none)'}", not "${config[field] ?? '(none)'}"${changed.length ? ` (${changed.join('; ')})` : ''}; use another --out or the same ${field}`,
          );
        }
      }
      // The same model id at another endpoint, temperature or token limit answers otherwise. A
      // directory written before fingerprints were recorded gains them now (its runs are kept).
      if (previous.fingerprints && config.fingerprints) {
        const changed = fingerprintChanges(previous.fingerprints, config.fingerprints, roles);
        if (changed.length) {
          throw new ConfigError(
            `${configFile}: this directory holds results of model "${config.model}" set up otherwise: ${changed.join('; ')}; use another --out, or the same endpoint and settings (OPENAI_BASE_URL, multihop.config.json)`,
          );
        }
      }
      // The answers here were scored against the gold of then: by the aliases file's content (sha1), wherever it lies now.
      const sha1Of = (aliases: string | undefined) => aliases?.slice(aliases.lastIndexOf('@') + 1);
      const pathOf = (aliases: string) => aliases.slice(0, aliases.lastIndexOf('@'));
      if (sha1Of(previous.answerAliases) !== sha1Of(config.answerAliases)) {
        const [before, now] = [previous.answerAliases, config.answerAliases];
        throw new ConfigError(
          `${configFile}: this directory holds answers scored ${
            !before
              ? `without answer aliases, and ${pathOf(now!)} now lies beside the dataset: move it away to resume this directory as it was scored`
              : !now
                ? `against the answer aliases of ${pathOf(before)} (sha1 ${sha1Of(before)!.slice(0, 12)}), which are not beside the dataset now: put that file back to resume it`
                : `against other answer aliases (sha1 ${sha1Of(before)!.slice(0, 12)}) than those of ${pathOf(now)} (sha1 ${sha1Of(now)!.slice(0, 12)}): put the old file back to resume it`
          }, or use another --out (its EM and F1 were scored against the gold of then)`,
        );
      }
      const [budgetBefore, budgetNow] = [JSON.stringify(previous.budget ?? {}), JSON.stringify(config.budget ?? {})];
      if (budgetBefore !== budgetNow) {
        throw new ConfigError(
          `${configFile}: this directory holds runs made with budget ${describeBudget(previous.budget)}, not ${describeBudget(config.budget)}; use another --out or the same --max-llm-calls, --max-tokens and --timeout`,
        );
      }
      // A file a workflow was built from (a router file, a planner policy) rewritten in place since
      // its runs here (retrained): the runs here are the old file's. A directory written before
      // artifacts were recorded gains them now.
      for (const [workflow, files] of Object.entries(config.artifacts ?? {})) {
        const before = previous.artifacts?.[workflow];
        if (!before) continue;
        for (const [path, sha1] of Object.entries(files)) {
          if (before[path] !== undefined && before[path] !== sha1) {
            throw new ConfigError(
              `${configFile}: ${workflow} ran here built from ${path} as it was then (sha1 ${before[path]!.slice(0, 12)}), and that file has changed since (sha1 ${sha1.slice(0, 12)}): its runs here are the old file's; use another --out for the new file, or restore the old one`,
            );
          }
        }
      }
      // A method changed since its runs here (a node added, a prompt's version bumped): those runs are the old method's.
      for (const [workflow, definition] of Object.entries(config.definitions ?? {})) {
        const before = previous.definitions?.[workflow];
        if (before !== undefined && before !== definition) {
          throw new ConfigError(
            `${configFile}: ${workflow} ran here as its method was then (definition ${before}), and its chart or prompts have changed since (now ${definition}): its runs here are the old method's; use another --out for the method as it is now`,
          );
        }
      }
      // Workflows may be added to a directory; one already in it must keep its settings.
      if (previous.datasetSha1 && config.datasetSha1 && previous.datasetSha1 !== config.datasetSha1) {
        throw new ConfigError(
          `${configFile}: this directory holds results for another question file called "${config.dataset}" (sha1 ${previous.datasetSha1.slice(0, 8)}; this one's is ${config.datasetSha1.slice(0, 8)}): another file of the same name, or the file edited since; use another --out`,
        );
      }
      for (const [workflow, settings] of Object.entries(config.settings ?? {})) {
        const before = previous.settings?.[workflow];
        if (before && JSON.stringify(before) !== JSON.stringify(settings)) {
          throw new ConfigError(
            `${configFile}: ${workflow} ran here with settings ${JSON.stringify(before)}, not ${JSON.stringify(settings)}; use another --out or the same settings`,
          );
        }
      }
    }
    const file = join(dir, 'results.jsonl');
    const log = checkJsonlLog<ResultRow>(file, ['workflow', 'questionId', 'status', 'metrics', 'usage']);
    makeDirectory(join(dir, 'traces'));
    claimLock(dir);
    log.repair();
    if (previous) {
      const artifacts = { ...config.artifacts, ...previous.artifacts };
      const definitions = { ...config.definitions, ...previous.definitions };
      const merged = {
        ...previous,
        settings: { ...previous.settings, ...config.settings },
        ...(Object.keys(definitions).length ? { definitions } : {}),
        ...(previous.fingerprints || !config.fingerprints ? {} : { fingerprints: config.fingerprints }),
        ...(previous.datasetSha1 || !config.datasetSha1 ? {} : { datasetSha1: config.datasetSha1 }),
        ...(Object.keys(artifacts).length ? { artifacts } : {}),
      };
      if (JSON.stringify(merged) !== JSON.stringify(previous)) writeFileWhole(configFile, `${JSON.stringify(merged, null, 2)}\n`);
    } else {
      writeFileWhole(configFile, `${JSON.stringify({ ...config, createdAt: new Date().toISOString() }, null, 2)}\n`);
    }
    return new ResultsLog(dir, file, log.rows);
  }

  /** True when the pair has a result to keep (anything but a retryable failure). */
  has(workflow: string, questionId: string): boolean {
    const row = this.latest.get(key(workflow, questionId));
    return row !== undefined && !isRetryable(row);
  }

  /** Releases the directory for the next eval. */
  close(): void {
    rmSync(join(this.dir, LOCK), { force: true });
  }

  append(row: ResultRow): void {
    if (this.has(row.workflow, row.questionId)) return;
    onPath(this.file, () => appendFileSync(this.file, `${JSON.stringify(row)}\n`));
    this.latest.set(key(row.workflow, row.questionId), row);
  }
}

/**
 * What differs between two models' fingerprints (or two parsed model ids): the default model, and
 * each role's model among `roles` (undefined: every role either names), a role without a model of
 * its own taking the default's.
 */
export function fingerprintChanges(before: NonNullable<RunConfig['fingerprints']>, now: NonNullable<RunConfig['fingerprints']>, roles?: ReadonlySet<string>): string[] {
  const changes: string[] = [];
  if (before.default !== now.default) changes.push(`default model was ${before.default}, now ${now.default}`);
  for (const role of roles ? [...roles].sort() : [...new Set([...Object.keys(before.roles), ...Object.keys(now.roles)])]) {
    const [was, is] = [before.roles[role] ?? before.default, now.roles[role] ?? now.default];
    if (was !== is) changes.push(`role ${role} was ${was}, now ${is}`);
  }
  return changes;
}

/** A budget in words, as messages name it: `--max-llm-calls 1 --timeout 30`, or `none`. */
export function describeBudget(budget: Budget | undefined): string {
  const parts = [
    budget?.maxLlmCalls !== undefined ? `--max-llm-calls ${budget.maxLlmCalls}` : '',
    budget?.maxTokens !== undefined ? `--max-tokens ${budget.maxTokens}` : '',
    budget?.timeoutMs !== undefined ? `--timeout ${budget.timeoutMs / 1000}` : '',
  ].filter(Boolean);
  return parts.length ? `"${parts.join(' ')}"` : '"none"';
}

const LOCK = 'eval.lock';

/**
 * One eval (or predict) at a time per directory: two writers (a re-run started while the first
 * still runs) would both run the pending pairs and append them twice, paying for every call twice.
 * The lock (`<command>.lock`) names its process; a lock left by a process that no longer exists
 * (killed) is taken over. Returns what releases it.
 */
export function claimLock(dir: string, command: 'eval' | 'predict' = 'eval'): () => void {
  const file = join(dir, `${command}.lock`);
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
      throw new ConfigError(`${dir} is being written by another ${command} (process ${pid}); wait for it or stop it, then re-run to resume`);
    }
  }
  onPath(file, () => writeFileSync(file, `${process.pid}\n`));
  return () => rmSync(file, { force: true });
}

function key(workflow: string, questionId: string): string {
  return `${workflow}\u0000${questionId}`;
}
