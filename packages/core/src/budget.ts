import { BudgetExceededError, ConfigError, RunAbortedError } from './errors';

/** Limits of one run. Every field is optional; an absent field is no limit. */
export interface Budget {
  /** Retrieval hops (iterations, sub-goals) the run may take. */
  maxHops?: number;
  maxLlmCalls?: number;
  /** Prompt + completion tokens over all roles. */
  maxTokens?: number;
  /** Wall time from the run's start. */
  timeoutMs?: number;
}

/**
 * Refuses a budget that cannot mean what it says, naming the field: a count that is negative or
 * not whole, a time that is negative or not a number (`timeoutMs: NaN` would be no deadline at all).
 */
export function checkBudget(budget: Budget): void {
  for (const field of ['maxHops', 'maxLlmCalls', 'maxTokens', 'timeoutMs'] as const) {
    const value: unknown = budget[field];
    if (value === undefined) continue;
    const whole = field !== 'timeoutMs';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (whole && !Number.isInteger(value))) {
      throw new ConfigError(`budget.${field} must be ${whole ? 'a whole number' : 'a number of milliseconds'} ≥ 0, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`);
    }
  }
}

/**
 * Enforces a Budget. Checks run before each model call and each hop, so an exceeded budget
 * stops the run at a step boundary with a BudgetExceededError, which runWorkflow turns into a
 * labelled partial result. The deadline also aborts in-flight calls through `signal`.
 */
export class BudgetTracker {
  private hopCount = 0;
  private calls = 0;
  private tokens = 0;
  private readonly started = Date.now();
  /** Wall time spent in earlier processes (a resumed run's), counted towards the deadline. */
  private before = 0;
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  /** Aborts when the caller's signal aborts or the deadline passes. */
  readonly signal: AbortSignal;

  constructor(
    readonly budget: Budget = {},
    callerSignal?: AbortSignal,
  ) {
    checkBudget(budget);
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.controller.signal]) : this.controller.signal;
    this.schedule();
  }

  /** The run's wall time so far: this process's, plus what a resumed run had spent before it. */
  get elapsedMs(): number {
    return this.before + (Date.now() - this.started);
  }

  /** (Re)arms the deadline for the time left; past it already, the run is stopped now. */
  private schedule(): void {
    const { timeoutMs } = this.budget;
    if (timeoutMs === undefined || this.controller.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    const expire = () => this.controller.abort(new BudgetExceededError('deadline', timeoutMs, this.elapsedMs));
    const left = timeoutMs - this.elapsedMs;
    if (left <= 0) {
      this.timer = undefined;
      expire();
      return;
    }
    this.timer = setTimeout(expire, left);
    this.timer.unref?.();
  }

  get hops(): number {
    return this.hopCount;
  }

  get llmCalls(): number {
    return this.calls;
  }

  get totalTokens(): number {
    return this.tokens;
  }

  /** True when another hop fits in maxHops. */
  canHop(): boolean {
    return this.budget.maxHops === undefined || this.hopCount < this.budget.maxHops;
  }

  /** Counts a hop; throws when it would exceed maxHops. */
  chargeHop(): void {
    this.check();
    if (!this.canHop()) throw new BudgetExceededError('maxHops', this.budget.maxHops ?? 0, this.hopCount + 1);
    this.hopCount++;
  }

  /**
   * Throws before a model call that the budget does not allow, else reserves it: the count goes
   * up before the call goes out, so calls made in parallel cannot all pass the same check.
   */
  beforeLlmCall(): void {
    this.check();
    const { maxLlmCalls, maxTokens } = this.budget;
    if (maxLlmCalls !== undefined && this.calls >= maxLlmCalls) {
      throw new BudgetExceededError('maxLlmCalls', maxLlmCalls, this.calls + 1);
    }
    if (maxTokens !== undefined && this.tokens >= maxTokens) {
      throw new BudgetExceededError('maxTokens', maxTokens, this.tokens);
    }
    this.calls++;
  }

  /** Charges a finished call's tokens (successful or not: they were spent). */
  afterLlmCall(tokens: number): void {
    this.tokens += tokens;
  }

  /**
   * Counts what a resumed run already spent before this process (its restored checkpoints):
   * model calls and their tokens, the hops charged so far, and the wall time, which the deadline
   * counts too (the next check stops a run already past it). Never throws: the work was done.
   */
  restoreSpent(spent: { calls?: number; tokens?: number; hops?: number; elapsedMs?: number }): void {
    this.calls += spent.calls ?? 0;
    this.tokens += spent.tokens ?? 0;
    if (spent.hops !== undefined) this.hopCount = Math.max(this.hopCount, spent.hops);
    if (spent.elapsedMs !== undefined && spent.elapsedMs > 0) {
      this.before += spent.elapsedMs;
      this.schedule();
    }
  }

  /** Throws if the run was aborted or its deadline passed. */
  check(): void {
    if (!this.signal.aborted) return;
    const reason: unknown = this.signal.reason;
    if (reason instanceof BudgetExceededError) throw reason;
    throw new RunAbortedError(reason);
  }

  /** The deadline error when the deadline is what aborted the signal. */
  deadlineError(): BudgetExceededError | undefined {
    const reason: unknown = this.controller.signal.reason;
    return this.controller.signal.aborted && reason instanceof BudgetExceededError ? reason : undefined;
  }

  /** Ends the run's budget: the timer stops and calls still in flight are aborted. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.controller.signal.aborted) this.controller.abort(new RunAbortedError('the run has finished'));
  }
}
