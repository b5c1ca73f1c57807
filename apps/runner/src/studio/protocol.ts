/**
 * The studio's HTTP API, as types: what `multihop studio` serves and what the web app
 * (apps/studio) reads. Types only, so the browser bundle imports nothing of the runner's code.
 *
 * Every `/api/*` request carries the start-up token, as `Authorization: Bearer <token>`; only the
 * event stream of a run (an EventSource cannot set headers) takes it as `?token=<token>`. Errors
 * answer with a status (4xx for what the request or the files it names got wrong, 422 for an eval
 * or trace file that does not parse) and `{ error: string }` naming the field or path at fault.
 * JSON answers are gzip-compressed for a client that sends `Accept-Encoding: gzip`.
 */
import type { Chart, RunResult, TraceEvent } from '@multihop/core';
import type { ResultRow } from '../eval/ResultsLog';
import type { Summary } from '../eval/summarize';

/** GET /api/info */
export interface StudioInfo {
  version: string;
  /** The model runs use unless the page picks another (`offline`, `openai:gpt-4o-mini`). */
  model: { id: string; label: string; offline: boolean; partlyOffline?: boolean };
  /** Models the run form offers: `offline`, and the configured one when it differs. */
  models: string[];
  /** Dataset names the run form and the question picker offer. */
  datasets: string[];
  limits: StudioLimits;
  /** True for a page written by `multihop report` (no server: eval view only). */
  report?: false;
}

export interface StudioLimits {
  /** Longest question accepted, in characters. */
  maxQuestionChars: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Runs that may be under way at once; a further start answers 429. */
  maxConcurrentRuns: number;
  /** Wall-time budget of a run started from the page. */
  runTimeoutMs: number;
  /** Finished runs kept (with their traces) for the page to list and reconnect to; older ones are dropped. */
  keptRuns: number;
}

/** One prompt an agent calls: its template as written, and the reply it must give. */
export interface StudioPrompt {
  id: string;
  role: string;
  version: string;
  description?: string;
  system?: string;
  template: string;
  /** `json`: a JSON object checked against `schema`; `text`: a plain-text form (`instructions`). */
  reply: 'json' | 'text';
  /** JSON Schema of the parsed output. */
  schema: Record<string, unknown>;
  instructions?: string;
}

/** What a chart node is: the agent that acts there (paper's name), what it does, the prompts it calls. */
export interface StudioNodeInfo {
  agent?: string;
  description?: string;
  prompts: StudioPrompt[];
}

/** GET /api/workflows: one per workflow of every installed method manifest. */
export interface StudioWorkflow {
  id: string;
  title: string;
  engine: 'langgraph' | 'xstate' | 'plain';
  variant: string;
  method: { id: string; family: string; paper: string };
  /** The workflow's settings with the paper's defaults. */
  settings: Record<string, unknown>;
  /** The same Chart JSON `multihop chart <id> --format json` prints. */
  chart: Chart;
  /** By chart node id; nodes with nothing to say are absent. */
  nodes: Record<string, StudioNodeInfo>;
}

/** GET /api/datasets/:name/questions?offset=&limit=&q= */
export interface StudioQuestionPage {
  dataset: string;
  total: number;
  offset: number;
  questions: StudioQuestion[];
}

export interface StudioQuestion {
  id: string;
  text: string;
  answers: string[];
  hops?: number;
  type?: string;
  /** Titles of the gold supporting passages, when the dataset records them. */
  supportingTitles: string[];
}

/** POST /api/runs: a dataset question (`dataset` + `id`) or free text (`question`, searched over `corpus` or hotpotqa-dev's pool). */
export interface StudioRunRequest {
  workflow: string;
  question?: string;
  dataset?: string;
  id?: string;
  /** For free text: the dataset whose pooled corpus is searched (default hotpotqa-dev). */
  corpus?: string;
  /** `closed` (the question's own paragraphs) or `open` (the pooled corpus); dataset questions default to open, as every command of `multihop` does (DEFAULT_SETTING). */
  setting?: 'closed' | 'open';
  /** Overrides of the workflow's settings, checked as `--set <workflow>.<key>=<value>` is. */
  settings?: Record<string, unknown>;
  /** One of StudioInfo.models. */
  model?: string;
}

/** The answer to POST /api/runs (201), and to GET /api/runs/:id (a page coming back to a run). */
export interface StudioRunStarted {
  runId: string;
  workflow: string;
  query: { id: string; text: string };
  /** The chart of the workflow as configured for this run. */
  chart: Chart;
  /** The gold, when the question is a dataset's; never shown to the workflow. */
  gold?: StudioGold;
  /** The model's id (`offline`, `openai:m`), or, when roles differ, `{ default, roles }` (offlineModel reads either). */
  model: string | { default: string; roles: Record<string, string> };
  startedAt: number;
}

export interface StudioGold {
  answers: string[];
  /** Ids of the gold supporting passages: the page marks retrieved hits that are gold. */
  supportingIds: string[];
}

/**
 * GET /api/runs/:id/events (text/event-stream). Every event of the run from the first (or
 * after `Last-Event-ID`), then live ones:
 * - `event: trace`, `data: TraceEvent`, `id: <seq>`;
 * - `event: done`, `data: StudioRunDone`, once, last.
 * llm events of studio runs carry the rendered `messages` and the reply `text` besides the
 * usage and the parsed `output`.
 */
export interface StudioRunDone {
  result: Omit<RunResult, 'trace'>;
  /** EM/F1 and retrieval metrics against the gold, for a dataset question. */
  metrics?: Record<string, number | null>;
}

/** POST /api/runs/:id/stop answers `{ stopped: true }`; the stream then ends with status `error`, stopReason `aborted`. */
export interface StudioStopped {
  stopped: boolean;
}

/** GET /api/runs: the runs of this server, newest first. */
export interface StudioRunSummary {
  runId: string;
  workflow: string;
  question: string;
  state: 'running' | 'done';
  status?: RunResult['status'];
  startedAt: number;
}

/** GET /api/evals: the eval directories the server may open (under its roots). */
export interface StudioEvalListing {
  roots: string[];
  evals: Array<{ dir: string; dataset?: string; n?: number; workflows: string[]; created?: string }>;
}

/**
 * GET /api/eval?dir=DIR: one eval directory. `summary` is its summary.json (the runner's
 * Summary), `rows` its results.jsonl lines. Traces are fetched one at a time.
 */
export interface StudioEval {
  dir: string;
  summary: StudioEvalSummary;
  rows: StudioEvalRow[];
  /** Judge verdicts by `${workflow}\u0000${questionId}` → correct 0/1, where the eval was judged. */
  verdicts: Record<string, 0 | 1>;
  /** Gold supporting passage ids by question id, when the eval's dataset can be read here: replays mark gold hits with them. */
  supportingIds?: Record<string, string[]>;
}

/** A trace file as `eval` writes it (traces/…) or `run --json` prints it: the RunResult, with the run's settings and model. */
export type StudioTraceFile = RunResult & { settings?: Record<string, unknown>; model?: unknown };

/**
 * GET /api/trace?path=FILE (a saved trace: an eval's traces/ file or a `run --json` output) and
 * GET /api/eval/trace?dir=DIR&file=traces/... (one run of an eval): the run, with the chart of
 * its workflow as configured for that run.
 */
export interface StudioReplay {
  path: string;
  run: StudioTraceFile;
  chart: Chart;
  /** Why the chart may not be the run's own (no settings recorded, or settings refused here). */
  warning?: string;
}

/** summary.json as `multihop eval` writes it (see eval/summarize.ts). */
export type StudioEvalSummary = Summary;

/**
 * One line of results.jsonl (see eval/ResultsLog.ts), as the summary scores it: a failure of the
 * workflow's own (`scoredAsWrong`: a reply past its repair round, an invalid plan, a step limit, a
 * request the server refused) has its answer metrics 0, the draft answer's in `draftMetrics`.
 */
export type StudioEvalRow = ResultRow & { scoredAsWrong?: true; draftMetrics?: ResultRow['metrics'] };

/**
 * What `multihop report DIR` embeds in its single HTML file as `window.__MULTIHOP_REPORT__`:
 * the eval and every trace it refers to, so the page needs no server.
 */
export interface StudioReport {
  report: true;
  generated: string;
  eval: StudioEval;
  /** How each of `tracePacks` is written: a JSON object of trace files by path, gzip-compressed, in base64. */
  traceEncoding: 'gzip+base64';
  /** By the row's `trace` path: the index in `tracePacks` of the pack that holds it. */
  traces: Record<string, number>;
  /**
   * The traces, packed by question (a question's runs are opened together, side by side, and
   * repeat the same passages and prompts, so they compress well together). Uncompressed, a
   * 20-workflow eval's traces made its page 30–60 MB.
   */
  tracePacks: string[];
  /** Charts of the eval's workflows, by the rows' workflow (an id, or a sweep's label such as `par2-rag[hopBudget=2]`), as configured in the eval. */
  charts: Record<string, Chart>;
  /** By trace path: the key in `charts` of its row's chart (a sweep's rows share a workflow id, each with its own settings). */
  traceCharts?: Record<string, string>;
}

export type { Chart, RunResult, TraceEvent };
