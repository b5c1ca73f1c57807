import type { CallUsage } from './usage';

/**
 * Every error multihop throws extends MultihopError, so callers can tell the project's own
 * failures (with a stable `code`) from bugs and from errors of the libraries underneath.
 */
export class MultihopError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A setting is missing or wrong: names the variable, file or field. */
export class ConfigError extends MultihopError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFIG', message, options);
  }
}

/** Input data (a file, a line, a field) is malformed. */
export class InputError extends MultihopError {
  constructor(
    message: string,
    readonly location: { file?: string; line?: number; field?: string } = {},
    options?: { cause?: unknown },
  ) {
    super('INPUT', message, options);
  }
}

/**
 * The model's reply broke its schema even after the repair round. `raw` keeps every reply
 * text (first attempt, then the repair), so the trace can show exactly what came back.
 */
export class ModelOutputError extends MultihopError {
  constructor(
    message: string,
    readonly details: {
      role: string;
      promptId: string;
      raw: string[];
      issues: string;
      /** What the failed round trips cost: they were spent even though nothing usable came back. */
      usage?: CallUsage;
    },
  ) {
    super('MODEL_OUTPUT', message);
  }
}

/**
 * What a model call received and spent before it failed: replies that broke the schema, whose
 * repair round was then cut short (the provider failed, the run was aborted). They were paid for,
 * and their text is what a developer needs to see, so the error keeps them.
 */
export interface SpentCall {
  raw: string[];
  issues: string;
  usage: CallUsage;
}

const spentByError = new WeakMap<object, SpentCall>();

/** Attaches to `error` what its call spent before failing (see SpentCall). */
export function recordSpent(error: unknown, spent: SpentCall): void {
  if (typeof error === 'object' && error !== null) spentByError.set(error, spent);
}

/**
 * What the failed call behind `error` spent: a ModelOutputError's replies, or those recorded with
 * recordSpent. Recorded only on an error of one call (createModel never records on an abort
 * signal's reason, which every call it aborts shares), so no other call's failure carries them.
 */
export function spentOf(error: unknown): Partial<SpentCall> | undefined {
  if (error instanceof ModelOutputError) return error.details;
  return typeof error === 'object' && error !== null ? spentByError.get(error) : undefined;
}

/** The provider failed (HTTP error, timeout, connection) after its bounded retries. */
export class ProviderError extends MultihopError {
  constructor(
    message: string,
    /**
     * `setting`: the request field a 400 named (the error's `param`, other than the messages): the
     * server refused a setting the configuration sends (a temperature the model does not take), not
     * the question's prompt.
     */
    readonly details: { provider: string; status?: number; attempts: number; retryable: boolean; setting?: string },
    options?: { cause?: unknown },
  ) {
    super('PROVIDER', message, options);
  }
}

export type BudgetKind = 'maxHops' | 'maxLlmCalls' | 'maxTokens' | 'deadline';

/** A run hit one of its limits; runWorkflow turns this into a labelled partial result. */
export class BudgetExceededError extends MultihopError {
  constructor(
    readonly kind: BudgetKind,
    readonly limit: number,
    readonly used: number,
  ) {
    super('BUDGET', `budget exceeded: ${kind} (limit ${limit}, used ${used})`);
  }
}

/** The caller aborted the run through its AbortSignal. */
export class RunAbortedError extends MultihopError {
  /** `cause`: what the engine or port rejected with when it gave up (the signal's bare reason, say). */
  constructor(reason?: unknown, options?: { cause?: unknown }) {
    super('ABORTED', `run aborted${reason instanceof Error ? `: ${reason.message}` : reason ? `: ${String(reason)}` : ''}`, options);
  }
}

/** A plan (sub-goal list / DAG) is invalid: unknown step, cycle, self-reference, dangling placeholder. */
export class PlanError extends MultihopError {
  constructor(
    message: string,
    readonly problems: PlanProblem[],
  ) {
    super('PLAN', message);
  }
}

export interface PlanProblem {
  kind: 'unknown-step' | 'cycle' | 'self-reference' | 'dangling-placeholder' | 'duplicate-step' | 'empty';
  step?: string;
  message: string;
}
