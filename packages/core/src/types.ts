import type { CallUsage } from './usage';
/**
 * What a workflow run is given: the question's id and text, and whatever metadata the caller
 * chooses to pass. Never the gold: answers and supporting facts stay with the dataset and the
 * scorer (`defineWorkflow` strips a `Question` down to this before the method sees it).
 */
export interface Query {
  id: string;
  text: string;
  /** Caller-chosen extras (the dataset name, a UI session); must not carry gold answers or facts. */
  metadata?: Record<string, unknown>;
}

/** The query part of a question: id, text and metadata only, so a run cannot read the gold. */
export function toQuery(query: Query): Query {
  return { id: query.id, text: query.text, ...(query.metadata ? { metadata: { ...query.metadata } } : {}) };
}

/** A multi-hop question as a dataset holds it: the query plus its gold answer(s) and gold supporting passages. */
export interface Question extends Query {
  /** The canonical gold answer. */
  answer: string;
  /** Further accepted answers (MuSiQue `answer_aliases`, IRCoT extra spans); metrics take the max over all. */
  aliases: string[];
  /** Ids of the gold supporting passages, in the same id space the retriever returns. */
  supportingIds: string[];
  /** Sentence-level supporting facts where the dataset has them. */
  supportingSentences?: Array<{ passageId: string; sentence: number }>;
  /** Question type as the dataset labels it (bridge, comparison, compositional, 2hop, ...). */
  type?: string;
  /** Number of hops, where known (MuSiQue decompositions, gold passage count). */
  hops?: number;
  /**
   * The gold decomposition into single-hop sub-questions, where the dataset has one (MuSiQue):
   * each step's question (with `#1`-style references to earlier answers), its answer and its
   * supporting passage. Used to score intermediate steps (OPERA's per-step rewards).
   */
  decomposition?: Array<{ question: string; answer: string; supportingIds: string[] }>;
  /** Name of the dataset the question comes from. */
  dataset?: string;
}

/** All accepted gold answers of a question: the answer first, then its aliases. */
export function goldAnswers(question: Pick<Question, 'answer' | 'aliases'>): string[] {
  return [question.answer, ...question.aliases.filter((a) => a !== question.answer)];
}

/** A retrievable unit of text. Sentence chunks point at their passage through `passageId`. */
export interface Passage {
  id: string;
  title: string;
  text: string;
  /** For sentence-level chunks: the passage the sentence belongs to. */
  passageId?: string;
  /** For sentence-level chunks: the sentence index inside its passage. */
  sentence?: number;
}

/** A passage as a run used it: where it came from and how it ranked. */
export interface Evidence extends Passage {
  /** The query that retrieved it. */
  query: string;
  rank: number;
  score: number;
  /** The hop (iteration, sub-goal) that brought it in, where the method has hops. */
  hop?: number;
}

export interface RoleUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** True when at least one call's tokens were estimated because the provider reported none. */
  estimated: boolean;
  /** Calls answered from the on-disk response cache. */
  cachedCalls: number;
}

export interface Usage {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** True when any token count in here is an estimate, not the provider's own figure. */
  estimated: boolean;
  byRole: Record<string, RoleUsage>;
  retrievalCalls: number;
  wallMs: number;
}

/**
 * `transition` is an edge of the chart taken: `data = { from, to, guard? }`, emitted by both
 * engine adapters (LangGraph and XState) so a UI lights edges up the same way for either.
 */
export type TraceKind = 'enter' | 'exit' | 'llm' | 'retrieve' | 'decision' | 'transition' | 'error';

/** The data of a `transition` event: the chart edge taken and the guard (router) that chose it. */
export interface TransitionData {
  from: string;
  to: string;
  /** The guard or router that let the edge through; absent for an unconditional edge. */
  guard?: string;
  /** For a conditional edge, the branch label (`CONTINUE`, `else`, an event name). */
  label?: string;
}

/** One step of a run, emitted live and kept in order in the RunResult. */
export interface TraceEvent {
  runId: string;
  /** 0-based, strictly increasing within a run. */
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** The chart node (state / graph node) the event belongs to. */
  node: string;
  kind: TraceKind;
  data: Record<string, unknown>;
}

/** The data of an `llm` event: one model call, its usage as CallUsage counts it, and its parsed output. */
export interface LlmEventData extends CallUsage {
  promptId: string;
  output: unknown;
}

/** The data of a `retrieve` event: one search and the hits it gave. */
export interface RetrieveEventData {
  query: string;
  k?: number;
  level: 'passage' | 'sentence';
  ms: number;
  hits: Array<{ id: string; title: string; rank: number; score: number }>;
}

/** The data of a `decision` event: its name (`STOP`, `CONTINUE`, a route, `paused`) and what the method shows with it. */
export interface DecisionEventData {
  decision: string;
}

/** The data of an `error` event: the failure's code and message, a bug's stack, a schema failure's raw replies, a provider failure's retryable. */
export interface ErrorEventData {
  code: string;
  message: string;
  stack?: string;
  raw?: string[];
  retryable?: boolean;
}

/** The data of an `exit` event: `failed` when the node threw, `reason` when the run's end closed it, a parallel branch's `branch`. */
export interface ExitEventData {
  failed?: true;
  reason?: string;
  branch?: unknown;
}

/** Each kind's data, as the trace contract gives it (docs/architecture.md); every kind may carry more fields. */
export interface TraceEventDataOf {
  enter: Record<string, unknown>;
  exit: ExitEventData;
  llm: LlmEventData;
  retrieve: RetrieveEventData;
  decision: DecisionEventData;
  transition: TransitionData;
  error: ErrorEventData;
}

/** A trace event of one kind, its data typed: what `isTraceEvent(event, kind)` narrows to. */
export type TraceEventOf<K extends TraceKind> = TraceEvent & { kind: K; data: TraceEventDataOf[K] };

/**
 * Whether `event` is of `kind`, narrowing its `data` to that kind's fields, so a UI reads
 * `event.data.hits` of a `retrieve` event without a cast.
 */
export function isTraceEvent<K extends TraceKind>(event: TraceEvent, kind: K): event is TraceEventOf<K> {
  return event.kind === kind;
}

export type RunStatus = 'ok' | 'partial' | 'error';

export interface RunResult {
  runId: string;
  workflowId: string;
  questionId: string;
  /** The final answer (for a partial run: the latest answer the run had). */
  answer: string;
  /** `ok`: finished; `partial`: stopped by a budget, labelled in `stopReason`; `error`: failed, see `error`. */
  status: RunStatus;
  stopReason?: string;
  /**
   * Why the run failed; `stack` only for an UNEXPECTED error (a bug, not a failure the project
   * names), `status` the HTTP status of a PROVIDER error when the server answered with one.
   */
  /**
   * Why the run failed. `retryable` (a provider's failure): whether a later attempt may succeed
   * (a 429, a 5xx, a dropped connection) or not (a 401, a 400). `status`: the HTTP status.
   */
  error?: { code: string; message: string; raw?: string[]; stack?: string; status?: number; setting?: string; retryable?: boolean };
  /** Ids of the passages the run used, in the order they were gathered, deduplicated. */
  evidenceIds: string[];
  evidence: Evidence[];
  trace: TraceEvent[];
  usage: Usage;
  /** Method-specific extras (the plan, the hop count, the ESC decisions, ...). */
  data?: Record<string, unknown>;
}
