import { MultihopError, ProviderError, RunAbortedError } from '../errors';
import type { Provider, ProviderRequest, ProviderResponse } from './port';
import { asProviderError } from './providerFailure';

/** What `onRetry` is told before a retry's wait. */
export interface ProviderRetryNotice {
  provider: string;
  role: string;
  promptId: string;
  /** The attempt that failed (1-based) and the most attempts the call may make. */
  attempt: number;
  maxAttempts: number;
  /** The failure's message. */
  reason: string;
  status?: number;
  /** How long the call waits before the next attempt. */
  waitMs: number;
}

export interface ProviderRetryOptions {
  /** Retries after the first attempt (default 2, so 3 attempts). */
  maxRetries?: number;
  /** The first wait; it doubles per retry, plus up to 25% jitter (default 500 ms). */
  baseDelayMs?: number;
  /**
   * The longest wait (default 20 s). A wait the failure asks for (`Retry-After` or
   * `retry-after-ms` on the error's `headers`) is honoured in full up to this; a longer one fails
   * the call at once, saying so.
   */
  maxDelayMs?: number;
  onRetry?: (notice: ProviderRetryNotice) => void;
}

/**
 * A provider of your own with bounded retries: a failure that a later attempt may not meet (an
 * HTTP 408, 425, 429 or 5xx carried as `status` or `statusCode`, a dropped connection such as
 * `ECONNRESET`, or a `ProviderError` marked `retryable`) is tried again after an exponential
 * backoff with jitter, or after the wait the error's `headers` ask for; anything else fails at
 * once. The run's abort signal ends a wait at once (a `RunAbortedError`). The last failure is a
 * `ProviderError` naming the attempts made. The id is the provider's own, so caches and
 * fingerprints are unchanged. Do not wrap a provider that retries itself
 * (`@multihop/provider-openai`'s does): the attempts would multiply.
 */
export function retryingProvider(provider: Provider, options: ProviderRetryOptions = {}): Provider {
  const maxRetries = count(options.maxRetries, 2, 'maxRetries');
  const baseDelayMs = count(options.baseDelayMs, 500, 'baseDelayMs');
  const maxDelayMs = count(options.maxDelayMs, 20_000, 'maxDelayMs');
  // The failure as the call ends with it: after retries, naming how many attempts were made.
  const attempts = (error: ProviderError, made: number): ProviderError =>
    made === 1 ? error : new ProviderError(`${error.message} (after ${made} attempts)`, { ...error.details, attempts: made }, { cause: error.cause ?? error });
  return {
    ...provider,
    id: provider.id,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      for (let attempt = 1; ; attempt++) {
        if (request.signal?.aborted) throw new RunAbortedError(request.signal.reason);
        try {
          return await provider.generate(request);
        } catch (error) {
          const failure = asProviderError(error, provider, request.signal);
          if (!(failure instanceof ProviderError)) throw failure;
          if (!failure.details.retryable || attempt > maxRetries) throw attempts(failure, attempt);
          const asked = retryAfterMs((error as { headers?: unknown } | null)?.headers);
          if (asked !== undefined && asked > maxDelayMs) {
            throw attempts(new ProviderError(`${failure.message}; it asked to wait ${asked} ms (Retry-After), more than maxDelayMs (${maxDelayMs} ms)`, failure.details, { cause: error }), attempt);
          }
          const waitMs = Math.round(asked ?? Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.25)));
          options.onRetry?.({
            provider: provider.id,
            role: request.role,
            promptId: request.promptId,
            attempt,
            maxAttempts: maxRetries + 1,
            reason: failure.message,
            ...(failure.details.status !== undefined ? { status: failure.details.status } : {}),
            waitMs,
          });
          await abortableSleep(waitMs, request.signal);
        }
      }
    },
  };
}

function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new MultihopError('CONFIG', `retryingProvider: ${name} must be a whole number of at least 0, got ${String(value)}`);
  return value;
}

/**
 * The wait a failed HTTP reply asks for, in ms: its `retry-after-ms` header, else `retry-after`
 * (seconds, or an HTTP date); undefined when it asks for none. `headers` is a fetch `Headers` or a
 * plain object of lower-case names.
 */
export function retryAfterMs(headers: unknown): number | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const get = (name: string): string | null | undefined =>
    typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, string | undefined>)[name];
  const msText = get('retry-after-ms');
  const ms = Number(msText);
  if (msText != null && msText !== '' && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw == null || raw === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Waits `ms`, or rejects with a RunAbortedError as soon as `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new RunAbortedError(signal.reason));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAbortedError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
