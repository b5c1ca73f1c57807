import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { goldAnswers, TraceBus, type Query, type Question, type RunResult, type TraceEvent } from '@multihop/core';
import { isCorpusFile, isDatasetName } from '@multihop/datasets';
import { openCorpus, type OpenedCorpus } from '../corpus';
import { DEFAULT_SETTING } from '../setting';
import { scoreRun } from '../eval/scoreRun';
import { resolveModel, type RunnerModel } from '../model';
import { findWorkflow } from '../workflows';
import type { SettingAssignment } from '../workflowSettings';
import { PathRefused, type Roots } from './paths';
import type { StudioLimits, StudioRunDone, StudioRunRequest, StudioRunStarted, StudioRunSummary } from './protocol';

/** A request the server refuses: the status and a message naming the field. */
export class RequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface LiveRun {
  started: StudioRunStarted;
  trace: TraceBus;
  controller: AbortController;
  done?: StudioRunDone;
  /** Called with each event and once with `done`. */
  listeners: Set<(item: { event?: TraceEvent; done?: StudioRunDone }) => void>;
  finished: Promise<void>;
}

export interface RunManagerOptions {
  limits: StudioLimits;
  /** The model runs use unless the request names one of `models`. */
  model?: string;
  db?: string;
  /** Where a dataset or corpus file named by path may be: the page reads nothing outside them. */
  roots: Roots;
}

/**
 * The runs started from the page: each on the same path as `multihop run` (the workflow built
 * with its settings checked as `--set` is, the corpus opened and ingested as the CLI does, the
 * same model resolution), with the studio's bounds on top: question length, runs at once, and a
 * wall-time budget. Events are kept per run so a page that connects late, or reconnects, gets
 * every event from the first.
 */
export class RunManager {
  private readonly runs = new Map<string, LiveRun>();
  private readonly corpora = new Map<string, Promise<OpenedCorpus>>();
  private readonly models = new Map<string, RunnerModel>();
  /** Starts past the cap check still opening their corpus: they hold a slot before they are in `runs`. */
  private starting = 0;

  constructor(private readonly options: RunManagerOptions) {}

  /** The model ids the page may choose from: the configured one first, then the offline model. */
  get modelChoices(): string[] {
    const configured = this.model(undefined);
    const id = configured.describe.default;
    return [...new Set([id, 'offline'])];
  }

  model(spec: string | undefined): RunnerModel {
    const key = spec ?? this.options.model ?? '';
    let model = this.models.get(key);
    if (!model) {
      model = resolveModel(spec ?? this.options.model);
      this.models.set(key, model);
    }
    return model;
  }

  list(): StudioRunSummary[] {
    return [...this.runs.values()]
      .map((run) => ({
        runId: run.started.runId,
        workflow: run.started.workflow,
        question: run.started.query.text,
        state: run.done ? ('done' as const) : ('running' as const),
        ...(run.done ? { status: run.done.result.status } : {}),
        startedAt: run.started.startedAt,
      }))
      .sort((a, b) => b.startedAt - a.startedAt);
  }

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  async start(body: unknown): Promise<StudioRunStarted> {
    const request = checkRunRequest(body, this.options.limits);
    // The check and the reservation happen in one go, before the first await: requests arriving
    // while a corpus opens (seconds, on its first use) see the slot taken.
    const running = [...this.runs.values()].filter((r) => !r.done).length + this.starting;
    if (running >= this.options.limits.maxConcurrentRuns) {
      throw new RequestRefused(429, `${running} runs are under way, the most this studio runs at once (maxConcurrentRuns); stop one or wait`);
    }
    this.starting++;
    try {
      return await this.launch(request);
    } finally {
      // By now the run is in `runs` (counted there) or it failed to start (the slot is free again).
      this.starting--;
    }
  }

  private async launch(request: StudioRunRequest): Promise<StudioRunStarted> {
    const choices = this.modelChoices;
    if (request.model !== undefined && !choices.includes(request.model)) {
      throw new RequestRefused(400, `model: "${request.model}" is not one this studio offers (${choices.join(', ')}); start the studio with --model to offer another`);
    }
    const assignments: SettingAssignment[] = Object.entries(request.settings ?? {}).map(([key, value]) => ({
      target: request.workflow,
      key,
      value,
      where: `settings.${key}`,
    }));
    let selected;
    try {
      selected = findWorkflow(request.workflow, assignments);
    } catch (error) {
      throw new RequestRefused(400, error instanceof Error ? error.message : String(error));
    }
    const model = this.model(request.model === 'offline' ? 'offline' : request.model);

    const setting = request.question ? 'open' : (request.setting ?? DEFAULT_SETTING);
    const source = request.question ? await freeTextCorpus(request.corpus, this.options.roots) : { dataset: datasetSource(request.dataset as string, this.options.roots) };
    const corpus = await this.corpus(source.dataset, source.corpus, setting);
    let query: Query;
    let gold: Question | undefined;
    if (request.question) {
      query = { id: `studio-${Date.now()}`, text: request.question };
    } else {
      gold = corpus.dataset.questions.find((q) => q.id === request.id);
      if (!gold) throw new RequestRefused(404, `id: no question "${request.id}" in ${corpus.dataset.name}`);
      query = { id: gold.id, text: gold.text, metadata: { dataset: corpus.dataset.name } };
    }

    const runId = randomUUID();
    const trace = new TraceBus(runId);
    const controller = new AbortController();
    const started: StudioRunStarted = {
      runId,
      workflow: selected.entry.id,
      query: { id: query.id, text: query.text },
      chart: selected.workflow.chart(),
      ...(gold ? { gold: { answers: goldAnswers(gold), supportingIds: gold.supportingIds } } : {}),
      // The roles too when they differ from the default: a run whose roles the offline model serves is marked so.
      // The page leaves the judge's role out (offlineModel, modelText): a run never calls it.
      model: Object.keys(model.describe.roles).length ? model.describe : model.describe.default,
      startedAt: Date.now(),
    };
    const live: LiveRun = { started, trace, controller, listeners: new Set(), finished: Promise.resolve() };
    trace.on((event) => {
      for (const listener of live.listeners) listener({ event });
    });
    this.runs.set(runId, live);
    live.finished = selected.workflow
      .run(query, {
        model: model.port,
        retriever: corpus.retrieverFor(query),
        trace,
        signal: controller.signal,
        budget: { timeoutMs: this.options.limits.runTimeoutMs },
        traceMessages: true,
      })
      .then(
        (result) => this.finish(live, result, gold, selected.entry),
        (error: unknown) => {
          // runWorkflow turns every failure into a result; this is a defect of the studio's own.
          const message = error instanceof Error ? error.message : String(error);
          this.finish(live, { ...emptyResult(runId, started), status: 'error', error: { code: 'UNEXPECTED', message } }, gold, selected.entry);
        },
      );
    return started;
  }

  stop(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run) throw new RequestRefused(404, `no run ${runId}`);
    if (run.done) return false;
    run.controller.abort();
    return true;
  }

  /** Stops every run and closes the corpora. */
  async close(): Promise<void> {
    for (const run of this.runs.values()) if (!run.done) run.controller.abort();
    await Promise.allSettled([...this.runs.values()].map((r) => r.finished));
    for (const corpus of this.corpora.values()) (await corpus.catch(() => undefined))?.close();
    this.corpora.clear();
  }

  private finish(live: LiveRun, result: RunResult, gold: Question | undefined, entry: { searches?: boolean }): void {
    const { trace: _events, ...rest } = result;
    const scored = gold ? scoreRun(result, gold, entry) : undefined;
    const metrics = scored ? Object.fromEntries(Object.entries(scored).filter(([, v]) => typeof v === 'number' || v === null)) as Record<string, number | null> : undefined;
    const done: StudioRunDone = { result: rest, ...(metrics ? { metrics } : {}) };
    live.done = done;
    for (const listener of live.listeners) listener({ done });
    live.listeners.clear();
    // A long session keeps the latest finished runs (each holds its whole trace), not all of them.
    const finished = [...this.runs.values()].filter((r) => r.done);
    for (const old of finished.slice(0, Math.max(0, finished.length - this.options.limits.keptRuns))) this.runs.delete(old.started.runId);
  }

  /** Opened once per dataset, corpus and setting, and kept for the next run (ingest happens on the first). */
  private corpus(dataset: string | undefined, corpusFile: string | undefined, setting: 'open' | 'closed'): Promise<OpenedCorpus> {
    const key = `${dataset ?? ''}\0${corpusFile ?? ''}\0${setting}`;
    let opened = this.corpora.get(key);
    if (!opened) {
      opened = openCorpus({ ...(dataset ? { dataset } : {}), ...(corpusFile ? { corpus: corpusFile } : {}), setting, db: this.options.db });
      this.corpora.set(key, opened);
      opened.catch(() => this.corpora.delete(key));
    }
    return opened.catch((error: unknown) => {
      // A file that is not JSON is named, without the parser's excerpt of its first characters (the page is not the file's owner).
      // A question or corpus file inside the roots is named as the page named it, not by its real path.
      const files = [dataset, corpusFile].filter((f): f is string => f !== undefined && isAbsolute(f));
      throw new RequestRefused(400, loaderMessage(error, files.map((f) => [f, this.options.roots.display(f)])));
    });
  }
}

/** A shared dataset by name, or a question file inside the studio's roots (refused elsewhere). */
function datasetSource(given: string, roots: Roots): string {
  return isDatasetName(given) ? given : confined(roots, given, 'dataset');
}

/**
 * A dataset or corpus loader's error as the page is told it: a file that is not JSON is named,
 * without the parser's excerpt of its first characters (the page is not the file's owner), and
 * each `[real, shown]` of `renames` names a file as the page named it.
 */
export function loaderMessage(error: unknown, renames: ReadonlyArray<readonly [real: string, shown: string]> = []): string {
  let message = (error instanceof Error ? error.message : String(error)).replace(/not valid JSON \([^\n]*\)/g, 'not valid JSON');
  for (const [real, shown] of renames) message = message.split(real).join(shown);
  return message;
}

/** Free text searches hotpotqa-dev's pool unless the request names a dataset's pool or a corpus file (as `multihop run --question`). */
async function freeTextCorpus(given: string | undefined, roots: Roots): Promise<{ dataset?: string; corpus?: string }> {
  const name = given ?? 'hotpotqa-dev';
  if (isDatasetName(name)) return { dataset: name };
  const path = confined(roots, name, 'corpus');
  if (!(await isCorpusFile(path).catch(() => false))) throw new RequestRefused(400, `corpus: "${name}" is neither a dataset name nor a corpus file`);
  return { corpus: path };
}

function confined(roots: Roots, path: string, field: string): string {
  try {
    return roots.resolve(path, field);
  } catch (error) {
    if (error instanceof PathRefused) throw new RequestRefused(error.status, error.message);
    throw error;
  }
}

function emptyResult(runId: string, started: StudioRunStarted): RunResult {
  return {
    runId,
    workflowId: started.workflow,
    questionId: started.query.id,
    answer: '',
    status: 'error',
    evidenceIds: [],
    evidence: [],
    trace: [],
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, estimated: false, byRole: {}, retrievalCalls: 0, wallMs: 0 },
  };
}

const RUN_FIELDS = new Set(['workflow', 'question', 'dataset', 'id', 'corpus', 'setting', 'settings', 'model']);

/** Checks a POST /api/runs body field by field; every refusal names the field. */
export function checkRunRequest(body: unknown, limits: StudioLimits): StudioRunRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RequestRefused(400, 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !RUN_FIELDS.has(k));
  if (unknown.length) throw new RequestRefused(400, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; a run takes ${[...RUN_FIELDS].join(', ')}`);
  const text = (field: string): string | undefined => {
    const value = b[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new RequestRefused(400, `${field} must be a string`);
    return value;
  };
  const workflow = text('workflow');
  if (!workflow) throw new RequestRefused(400, 'workflow: name the workflow to run');
  const question = text('question');
  const dataset = text('dataset');
  const id = text('id');
  if (question !== undefined) {
    if (question.trim() === '') throw new RequestRefused(400, 'question is blank');
    if (question.length > limits.maxQuestionChars) throw new RequestRefused(413, `question is ${question.length} characters; the studio takes at most ${limits.maxQuestionChars}`);
    if (dataset !== undefined || id !== undefined) throw new RequestRefused(400, 'give either question, or dataset with id, not both');
  } else if (!dataset || !id) {
    throw new RequestRefused(400, 'give question (free text), or dataset and id (a dataset question)');
  }
  const setting = text('setting');
  if (setting !== undefined && setting !== 'open' && setting !== 'closed') throw new RequestRefused(400, `setting must be open or closed, got "${setting}"`);
  if (question !== undefined && setting === 'closed') throw new RequestRefused(400, 'setting: free text has no paragraphs of its own; it runs open');
  // A dataset question searches its dataset's paragraphs: a corpus given with it would be dropped unsaid.
  if (question === undefined && text('corpus') !== undefined) throw new RequestRefused(400, 'corpus: only for free text (question); a dataset question searches its dataset\'s own paragraphs');
  const settings = b['settings'];
  if (settings !== undefined && (typeof settings !== 'object' || settings === null || Array.isArray(settings))) throw new RequestRefused(400, 'settings must be an object of setting → value');
  return {
    workflow,
    ...(question !== undefined ? { question } : { dataset, id }),
    ...(text('corpus') !== undefined ? { corpus: text('corpus') } : {}),
    ...(setting ? { setting } : {}),
    ...(settings ? { settings: settings as Record<string, unknown> } : {}),
    ...(text('model') !== undefined ? { model: text('model') } : {}),
  } as StudioRunRequest;
}
