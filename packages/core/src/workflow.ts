import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { BudgetTracker, checkBudget, type Budget } from './budget';
import type { Chart } from './chart';
import { callKeyOf, checkThreadRun, type DurableContext, type DurableRunOptions, type RecordedCall, type RunDelta, type ThreadRun } from './durable';
import { BudgetExceededError, ConfigError, ModelOutputError, MultihopError, ProviderError, RunAbortedError, spentOf } from './errors';
import type { ModelCallRequest, ModelCallResult, ModelPort } from './model/port';
import type { RetrieverPort, SearchHit, SearchOptions } from './retriever';
import { TraceBus, type TraceListener } from './trace';
import { toQuery, type Evidence, type Query, type RunResult, type TransitionData } from './types';
import { UsageMeter, totalTokens, type CallUsage } from './usage';

export interface RunOptions {
  model: ModelPort;
  retriever: RetrieverPort;
  budget?: Budget;
  signal?: AbortSignal;
  runId?: string;
  /** Receives every trace event as it happens. */
  onEvent?: TraceListener;
  /**
   * A bus of your own, to consume the run's events with `for await` while it runs; the run uses
   * its runId and closes it at the end.
   */
  trace?: TraceBus;
  /**
   * Put each model call's rendered prompt (`messages`) and reply `text` in its `llm` event, for
   * a viewer that shows them (the studio's live runs). Off by default: eval traces stay small.
   */
  traceMessages?: boolean;
  /**
   * Run under a durable thread (see DurableRunOptions): checkpoints go to its store as the run
   * goes, and a thread that has some resumes from the latest instead of starting again.
   */
  durable?: DurableRunOptions;
}

/** The workflow contract (SPEC §3): every method and baseline is one of these. */
export interface Workflow {
  id: string;
  title: string;
  /** The paper the method comes from (title, venue/arXiv). */
  paper: string;
  chart(): Chart;
  /**
   * Runs the workflow on a query. A `Question` may be passed (it is a Query with gold), but the
   * method only ever sees `{ id, text, metadata }`: gold stays with the dataset and the scorer.
   */
  run(query: Query, options: RunOptions): Promise<RunResult>;
  /**
   * For a workflow that hands each question to one of several others (the router): their ids.
   * An eval that runs it beside them adds the oracle row (the best of them per question) and
   * holds the router against the best of them. A router may route among fewer of them (the
   * Pareto front of their training means): its policy then predicts only those.
   */
  candidates?: readonly string[];
  /** For a router: the workflows its file names that are not installed here, and so not among its candidates. */
  notInstalled?: readonly string[];
  /**
   * For a router: how it chooses, so an eval that ran it beside its candidates can replay its
   * choice at other λ from the candidates' own runs (the router's quality–cost curve).
   */
  policy?: RoutingPolicy;
  /**
   * Files the workflow was built from beside its settings (a trained router file, a planner
   * policy), by path, each with the sha1 of its content (`fileSha1`). An eval records them, so a
   * resume after one of them was rewritten in place (retrained) is refused rather than mixing the
   * old file's runs with the new one's.
   */
  artifacts?: Readonly<Record<string, string>>;
}

/** A candidate's predicted quality and tokens on one question. */
export interface RoutePrediction {
  workflow: string;
  /** Expected quality, 0..1. */
  quality: number;
  /** Expected tokens. */
  tokens: number;
}

/**
 * A router's choice rule: among its candidates, the one with the highest quality − λ·tokens/1000
 * (ties to the earlier candidate). `predict` makes no model call and no retrieval; a router whose
 * features include the question's embedding embeds it, so `predict` may return a promise.
 */
export interface RoutingPolicy {
  /** The λ it routes with, in quality per 1,000 tokens. */
  lambda: number;
  /** The λ values worth replaying (its training compared these). */
  lambdas: readonly number[];
  predict(question: string): readonly RoutePrediction[] | Promise<readonly RoutePrediction[]>;
  /**
   * What it was trained on: the model whose runs its predictions learnt (an eval of another model
   * says its predictions are that model's), and the training questions by dataset (an eval on them
   * says its figures there are not held-out ones), and the settings (open, closed) its evals ran in.
   */
  trainedOn?: { model: string; questions: ReadonlyArray<{ dataset: string; ids: readonly string[] }>; settings?: readonly string[] };
}

/** The value a router ranks a candidate by at λ: quality − λ·tokens/1000. */
export function routeValue(prediction: RoutePrediction, lambda: number): number {
  return prediction.quality - (lambda * prediction.tokens) / 1000;
}

/**
 * The candidate a routing policy picks at λ: the highest quality − λ·tokens/1000, ties to the
 * earlier one; a prediction whose value is not a finite number is never picked (undefined when
 * none is).
 */
export function routeChoice(predictions: readonly RoutePrediction[], lambda: number): string | undefined {
  let best: RoutePrediction | undefined;
  let bestValue = -Infinity;
  for (const p of predictions) {
    const value = routeValue(p, lambda);
    if (Number.isFinite(value) && (best === undefined || value > bestValue)) [best, bestValue] = [p, value];
  }
  return best?.workflow;
}

/** What a workflow's body hands back; runWorkflow adds the trace, the usage and the status. */
export interface WorkflowOutput {
  answer: string;
  /** Set when the method itself stopped early (e.g. hop budget H reached) with its latest answer. */
  stopReason?: string;
  data?: Record<string, unknown>;
}

/**
 * What a workflow's body sees during a run. `model` and `retriever` are the caller's, wrapped so
 * that every call is traced under the current node, metered per role and checked against the
 * budget before it goes out.
 */
export interface RunContext {
  runId: string;
  /** The query being answered: id, text and the caller's metadata, never the gold. */
  query: Query;
  model: ModelPort;
  retriever: RetrieverPort;
  trace: TraceBus;
  budget: BudgetTracker;
  signal: AbortSignal;
  /** Runs `body` as chart node `name`: enter/exit events, and calls inside are traced under it. */
  node<T>(name: string, body: () => Promise<T>, data?: Record<string, unknown>): Promise<T>;
  /** Emits a decision event (a guard's outcome, a controller's verdict) at the current node. */
  decide(decision: string, data?: Record<string, unknown>): void;
  /**
   * Emits a `transition` event: the chart edge `from → to` was taken (through `guard`, when one
   * chose it). The engine adapters call this for every edge; methods do not need to.
   */
  transition(edge: TransitionData): void;
  /** Records the best answer so far; a run stopped by a budget or error reports it. */
  draft(answer: string): void;
  /** Adds retrieved passages to the run's evidence (deduplicated by id, first occurrence kept). */
  addEvidence(hits: SearchHit[], meta: { query: string; hop?: number }): Evidence[];
  /** Set when the run is durable: the engine adapters checkpoint through it and resume from it. */
  durable?: DurableContext;
}

export interface WorkflowDefinition {
  id: string;
  title: string;
  paper: string;
  chart(): Chart;
  execute(query: Query, ctx: RunContext): Promise<WorkflowOutput>;
}

/** Turns a method body into a Workflow whose runs are traced, metered, budgeted and never lost. */
export function defineWorkflow(definition: WorkflowDefinition): Workflow {
  return {
    id: definition.id,
    title: definition.title,
    paper: definition.paper,
    chart: definition.chart,
    run: (query, options) => runWorkflow(definition, toQuery(query), options),
  };
}

const currentNode = new AsyncLocalStorage<string>();

async function runWorkflow(definition: WorkflowDefinition, query: Query, options: RunOptions): Promise<RunResult> {
  // A caller's mistakes, refused before the run starts (a run that started is never lost: it ends in a result).
  if (options.trace?.isClosed) throw new ConfigError(`${definition.id}: the trace bus given (run ${options.trace.runId}) is closed: a bus serves one run; give each run its own`);
  if (options.trace && options.runId !== undefined && options.runId !== options.trace.runId) {
    throw new ConfigError(`${definition.id}: runId "${options.runId}" differs from the run id of the trace bus given ("${options.trace.runId}"); give one of them`);
  }
  if (options.budget) checkBudget(options.budget);
  if (options.durable) checkDurable(definition.id, options.durable);
  const trace = options.trace ?? new TraceBus(options.runId ?? randomUUID());
  const runId = trace.runId;
  // Errors already put in the trace by a wrapper, at the node where they happened.
  const traced = new WeakSet<object>();
  const traceError = (error: unknown, data: Record<string, unknown>, at: string = here()): void => {
    if (typeof error !== 'object' || error === null || traced.has(error) || error instanceof BudgetExceededError || trace.isClosed) return;
    traced.add(error);
    // A port of the caller's own that rejects with the abort signal's reason (as fetch does) reports the abort, not a bug.
    const code = error instanceof MultihopError ? error.code : budget.signal.aborted ? 'ABORTED' : 'UNEXPECTED';
    // An error no part of the project raised on purpose (a bug in a node): its stack says where.
    const stack = code === 'UNEXPECTED' && error instanceof Error && error.stack ? { stack: error.stack } : {};
    const retryable = error instanceof ProviderError ? { retryable: error.details.retryable } : {};
    trace.emit(at, 'error', { code, message: error instanceof Error ? error.message : String(error), ...stack, ...retryable, ...data });
  };
  // Nodes entered and not yet left, in the order entered. A run that ends while one is still open
  // (an engine that gives up on an abort without waiting for the node's body, a provider that
  // ignores the abort) closes it itself, so every trace's enters and exits pair up on both engines.
  const open: Array<{ name: string; branch?: Record<string, unknown> }> = [];
  // The innermost node an error left through, so the run's end traces its STOP there too.
  const failedAt = new WeakMap<object, string>();
  const closeOpen = (reason: string, failed = true): void => {
    while (open.length > 0) {
      const node = open.pop()!;
      trace.emit(node.name, 'exit', { ...(failed ? { failed: true } : {}), reason, ...node.branch });
    }
  };
  const unsubscribe = options.onEvent ? trace.on(options.onEvent) : undefined;
  const budget = new BudgetTracker(options.budget, options.signal);
  const meter = new UsageMeter();
  const evidence: Evidence[] = [];
  const seen = new Set<string>();
  let draft = '';
  const here = (): string => currentNode.getStore() ?? definition.id;
  /** Adds an item to the run's evidence unless its passage is there already (the first occurrence is kept). */
  const keepEvidence = (item: Evidence): boolean => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    evidence.push(item);
    return true;
  };
  const journal = options.durable ? new ThreadCalls(options.durable) : undefined;

  const model: ModelPort = {
    modelFor: (role) => options.model.modelFor(role),
    async call<T>(request: ModelCallRequest<T>): Promise<ModelCallResult<T>> {
      budget.beforeLlmCall();
      const role = request.role ?? request.prompt.role;
      const node = here();
      const key = journal ? journal.keyFor(node, request) : undefined;
      try {
        const recorded = key ? await journal!.get(key) : undefined;
        const result: ModelCallResult<T> = recorded
          ? { output: recorded.output as T, text: recorded.text, usage: recorded.usage, ...(recorded.messages ? { messages: recorded.messages } : {}) }
          : await options.model.call({ ...request, signal: request.signal ?? budget.signal });
        if (key && !recorded) await journal!.put(key, result);
        meter.recordCall(result.usage);
        budget.afterLlmCall(totalTokens(result.usage));
        if (!trace.isClosed) {
          const shown = options.traceMessages ? { messages: result.messages ?? renderedMessages(request), text: result.text } : {};
          const durableData = key ? { callKey: key, ...(recorded ? { replayed: true } : {}) } : {};
          // A reply the repair round mended was paid for too: its raw text and issues stay in the trace.
          const repaired = { ...(result.repaired ? { repaired: result.repaired } : {}), ...(result.raw !== undefined ? { raw: result.raw } : {}) };
          trace.emit(node, 'llm', { promptId: request.prompt.id, ...result.usage, output: result.output, ...repaired, ...shown, ...durableData });
        }
        return result;
      } catch (error) {
        // Round trips that came back before the call failed were spent: they count, in the usage and
        // against the budget, and their text goes to the trace (a reply that broke the schema, whose
        // repair round then failed at the provider, too).
        const spent = spentOf(error);
        if (spent?.usage) {
          meter.recordCall(spent.usage);
          budget.afterLlmCall(totalTokens(spent.usage));
        }
        traceError(error, { role, promptId: request.prompt.id, ...(spent?.raw ? { raw: spent.raw } : {}), ...(spent?.issues && !(error instanceof ModelOutputError) ? { issues: spent.issues } : {}) });
        throw error;
      }
    },
  };

  const retriever: RetrieverPort = {
    async search(query: string, searchOptions: SearchOptions = {}): Promise<SearchHit[]> {
      budget.check();
      const t0 = Date.now();
      let hits: SearchHit[];
      try {
        hits = await options.retriever.search(query, { ...searchOptions, signal: searchOptions.signal ?? budget.signal });
      } catch (thrown) {
        // A caller's own retriever throwing its client's error (a vector store's ECONNRESET) is a
        // failed search (SEARCH, which an eval runs again), not a bug of the run's; the original is its cause.
        const error =
          thrown instanceof MultihopError || budget.signal.aborted
            ? thrown
            : new MultihopError('SEARCH', `retriever: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
        traceError(error, { query });
        throw error;
      }
      meter.recordRetrieval();
      if (!trace.isClosed) {
        trace.emit(here(), 'retrieve', {
          query,
          k: searchOptions.k,
          level: searchOptions.level ?? 'passage',
          ms: Date.now() - t0,
          hits: hits.map((h) => ({ id: h.id, title: h.title, rank: h.rank, score: h.score })),
        });
      }
      return hits;
    },
  };

  const ctx: RunContext = {
    runId,
    query,
    model,
    retriever,
    trace,
    budget,
    signal: budget.signal,
    async node(name, body, data = {}) {
      return currentNode.run(name, async () => {
        trace.emit(name, 'enter', data);
        // A parallel branch's exit names its branch, as its enter does, so each can be paired with its enter.
        const branch = data['branch'] !== undefined ? { branch: data['branch'] } : {};
        const entry = { name, branch };
        open.push(entry);
        // Left once: the run's end may have closed it already (then the trace is closed too).
        const leave = (exit: Record<string, unknown>): void => {
          const i = open.indexOf(entry);
          if (i < 0) return;
          open.splice(i, 1);
          trace.emit(name, 'exit', { ...exit, ...branch });
        };
        try {
          const out = await body();
          leave({});
          return out;
        } catch (error) {
          // The error is traced at the node it left (the run's end would trace it at the workflow).
          traceError(error, {});
          if (typeof error === 'object' && error !== null && !failedAt.has(error)) failedAt.set(error, name);
          leave({ failed: true });
          throw error;
        }
      });
    },
    decide(decision, data = {}) {
      trace.emit(here(), 'decision', { decision, ...data });
    },
    transition(edge) {
      if (trace.isClosed) return;
      const data: Record<string, unknown> = { from: edge.from, to: edge.to };
      if (edge.guard !== undefined) data['guard'] = edge.guard;
      if (edge.label !== undefined) data['label'] = edge.label;
      trace.emit(edge.from, 'transition', data);
    },
    draft(answer) {
      draft = answer;
    },
    ...(options.durable
      ? {
          durable: durableContext(options.durable, { workflow: definition.id, queryId: query.id, query: query.text }, {
            trace,
            evidence,
            keepEvidence,
            getDraft: () => draft,
            setDraft: (d) => (draft = d),
            meter,
            budget,
            journal: journal!,
          }),
        }
      : {}),
    addEvidence(hits, meta) {
      return hits.map((hit): Evidence => ({ ...hit, query: meta.query, hop: meta.hop })).filter(keepEvidence);
    },
  };

  const finish = (partial: Omit<RunResult, 'runId' | 'workflowId' | 'questionId' | 'evidence' | 'evidenceIds' | 'trace' | 'usage'>): RunResult => {
    budget.dispose();
    trace.close();
    unsubscribe?.();
    return {
      runId,
      workflowId: definition.id,
      questionId: query.id,
      ...partial,
      evidenceIds: evidence.map((e) => e.id),
      evidence,
      trace: [...trace.events],
      // Over every process that ran it, when it was resumed (BudgetTracker.elapsedMs).
      usage: meter.snapshot(budget.elapsedMs),
    };
  };

  try {
    const output = await definition.execute(query, ctx);
    // A run that returns with a node still open (an XState run paused mid-actor) closes it too.
    closeOpen(output.stopReason ?? 'ended', false);
    return finish({
      answer: output.answer,
      status: output.stopReason ? 'partial' : 'ok',
      ...(output.stopReason ? { stopReason: output.stopReason } : {}),
      ...(output.data ? { data: output.data } : {}),
    });
  } catch (thrown) {
    const caught = mainError(thrown);
    const error = budget.deadlineError() ?? caught;
    // An engine's RunAbortedError after a node's work already failed for the abort (traced ABORTED at that
    // node): the run's error is that one, at that node; not a second event at the workflow.
    const nodeAborted = caught instanceof RunAbortedError ? trace.events.findLast((e) => e.kind === 'error' && e.data['code'] === 'ABORTED' && e.data['restored'] !== true) : undefined;
    if (nodeAborted) traced.add(caught as RunAbortedError);
    // Where the run stopped: the node entered last that is still open, else the node the error left through.
    const at = open.at(-1)?.name ?? (typeof caught === 'object' && caught !== null ? failedAt.get(caught) : undefined) ?? nodeAborted?.node ?? here();
    if (error instanceof BudgetExceededError) {
      closeOpen(`budget:${error.kind}`);
      trace.emit(at, 'decision', { decision: 'STOP', reason: `budget:${error.kind}`, limit: error.limit, used: error.used });
      return finish({ answer: draft, status: 'partial', stopReason: `budget:${error.kind}` });
    }
    const code = error instanceof MultihopError ? error.code : 'UNEXPECTED';
    const store = options.durable?.store;
    const said = error instanceof Error ? error.message : String(error);
    // A damaged checkpoint names its store, for a library caller as for the CLI.
    const message = code === 'CHECKPOINT' && store && !said.includes(store) ? `checkpoint store ${store}: ${said}` : said;
    const raw = spentOf(error)?.raw;
    const stack = code === 'UNEXPECTED' && error instanceof Error && error.stack ? { stack: error.stack } : {};
    traceError(error, {}, at);
    closeOpen(error instanceof RunAbortedError ? 'aborted' : code);
    return finish({
      answer: draft,
      status: 'error',
      ...(error instanceof RunAbortedError ? { stopReason: 'aborted' } : {}),
      error: {
        code,
        message,
        ...(raw ? { raw } : {}),
        ...stack,
        ...(error instanceof ProviderError && error.details.status !== undefined ? { status: error.details.status } : {}),
        ...(error instanceof ProviderError && error.details.setting !== undefined ? { setting: error.details.setting } : {}),
        ...(error instanceof ProviderError ? { retryable: error.details.retryable } : {}),
      },
    });
  }
}

/**
 * The error a run ends with. Parallel branches that fail in the same step reject together (LangGraph's
 * AggregateError, "Multiple errors occurred during superstep N"): the run ends for the one that says
 * most, a budget stop (a partial answer), then an abort, then the first typed error (its code and raw
 * reply kept), else the first. Each branch's error is traced at its own node already.
 */
function mainError(error: unknown): unknown {
  if (!(error instanceof AggregateError) || error.errors.length === 0) return error;
  const all = error.errors.map(mainError);
  return all.find((e) => e instanceof BudgetExceededError) ?? all.find((e) => e instanceof RunAbortedError) ?? all.find((e) => e instanceof MultihopError) ?? all[0];
}

/** The messages of a call whose port did not return them (a port of the caller's own), rendered again; a template that cannot render says why. */
function renderedMessages(request: ModelCallRequest<unknown>): Array<{ role: string; content: string }> {
  try {
    return request.prompt.render(request.vars);
  } catch (error) {
    return [{ role: 'system', content: `(the prompt could not be rendered again for the trace: ${error instanceof Error ? error.message : String(error)})` }];
  }
}

/** A durable run's model calls: keyed by node, prompt, messages and occurrence; read from and written to the thread's journal. */
class ThreadCalls {
  private readonly occurrences = new Map<string, number>();

  constructor(private readonly durable: DurableRunOptions) {}

  keyFor(node: string, request: ModelCallRequest<unknown>): string {
    let messages: Array<{ role: string; content: string }>;
    try {
      messages = request.prompt.render(request.vars);
    } catch {
      messages = [{ role: 'vars', content: JSON.stringify(request.vars) ?? '' }];
    }
    const base = callKeyOf(node, request.prompt.id, messages);
    const n = this.occurrences.get(base) ?? 0;
    this.occurrences.set(base, n + 1);
    return `${base}#${n}`;
  }

  /** A restored `llm` event's key counts as made, so the same call in this process gets the next occurrence. */
  seen(key: string): void {
    const hash = key.lastIndexOf('#');
    if (hash < 0) return;
    const base = key.slice(0, hash);
    const n = Number(key.slice(hash + 1));
    if (Number.isInteger(n)) this.occurrences.set(base, Math.max(this.occurrences.get(base) ?? 0, n + 1));
  }

  get(key: string): Promise<RecordedCall | undefined> {
    return this.durable.calls.get(this.durable.threadId, key);
  }

  put<T>(key: string, result: ModelCallResult<T>): Promise<void> {
    return this.durable.calls.put(this.durable.threadId, key, {
      output: result.output,
      text: result.text,
      usage: result.usage,
      ...(result.messages ? { messages: result.messages } : {}),
    });
  }
}

interface RunState {
  trace: TraceBus;
  evidence: readonly Evidence[];
  keepEvidence(item: Evidence): boolean;
  getDraft(): string;
  setDraft(draft: string): void;
  meter: UsageMeter;
  budget: BudgetTracker;
  journal: ThreadCalls;
}

/** ctx.durable: core's share of each checkpoint (capture) and of a resumption (restore). */
function durableContext(options: DurableRunOptions, thread: ThreadRun, run: RunState): DurableContext {
  let eventsTaken = 0;
  let evidenceTaken = 0;
  let restored = false;
  // The thread's first checkpoint says which run it holds; a resumed thread has said so already.
  let identified = false;
  return {
    threadId: options.threadId,
    checkpointer: options.checkpointer,
    capture(upTo?: number): RunDelta {
      const end = Math.max(eventsTaken, Math.min(upTo ?? run.trace.events.length, run.trace.events.length));
      const delta: RunDelta = {
        events: run.trace.events.slice(eventsTaken, end),
        evidence: run.evidence.slice(evidenceTaken),
        draft: run.getDraft(),
        hops: run.budget.hops,
        elapsedMs: run.budget.elapsedMs,
        ...(identified ? {} : { run: thread }),
      };
      identified = true;
      eventsTaken = end;
      evidenceTaken = run.evidence.length;
      return delta;
    },
    restore(deltas) {
      if (restored) throw new MultihopError('CHECKPOINT', `thread ${options.threadId}: a run is restored once`);
      restored = true;
      // Checked before anything is put back: another run's trace and answer must not become this run's.
      checkThreadRun(options.threadId, deltas.find((d) => d.run)?.run, thread);
      if (deltas.length) identified = true;
      let hops = 0;
      let elapsedMs = options.elapsedMs ?? 0;
      for (const delta of deltas) {
        for (const event of delta.events) {
          run.trace.replay(event);
          if (event.kind === 'llm') {
            const usage = event.data as unknown as CallUsage;
            run.meter.recordCall(usage);
            run.budget.restoreSpent({ calls: 1, tokens: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0) });
            if (typeof event.data['callKey'] === 'string') run.journal.seen(event.data['callKey']);
          } else if (event.kind === 'retrieve') {
            run.meter.recordRetrieval();
          }
        }
        for (const item of delta.evidence) run.keepEvidence(item);
        run.setDraft(delta.draft);
        hops = Math.max(hops, delta.hops);
        elapsedMs = Math.max(elapsedMs, delta.elapsedMs ?? 0);
      }
      run.budget.restoreSpent({ hops, elapsedMs });
      eventsTaken = run.trace.events.length;
      evidenceTaken = run.evidence.length;
    },
  };
}

/**
 * Durable options a run can use, checked before it starts: a checkpointer with the methods of a
 * LangGraph BaseCheckpointSaver and a call journal with get and put (the types are loose, so that
 * core does not depend on LangGraph: a wrong object would otherwise fail mid-run as a bug).
 */
function checkDurable(workflow: string, durable: DurableRunOptions): void {
  if (typeof durable.threadId !== 'string' || durable.threadId === '') throw new ConfigError(`${workflow}: durable.threadId must be a non-empty string`);
  const lacks = (value: unknown, methods: readonly string[]) => methods.filter((m) => typeof (value as Record<string, unknown> | null)?.[m] !== 'function');
  const saver = lacks(durable.checkpointer, ['getTuple', 'list', 'put', 'putWrites']);
  if (saver.length) throw new ConfigError(`${workflow}: durable.checkpointer must be a LangGraph BaseCheckpointSaver (its ${saver.join(', ')} missing): @multihop/checkpoint's stores give one, as does LangGraph's MemorySaver`);
  const journal = lacks(durable.calls, ['get', 'put']);
  if (journal.length) throw new ConfigError(`${workflow}: durable.calls must be a CallJournal with get and put (its ${journal.join(', ')} missing)`);
}
