import { MultihopError, ProviderError } from '../errors';
import type { Provider } from './port';

/** Transport failures that a later attempt may not meet: a dropped or refused connection, a timeout, a name lookup that failed for now. */
const TRANSIENT_ERRNO = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * What a provider threw, as the run reports a provider's failure: a project error (a ProviderError,
 * an abort, the offline model's) as it is; anything else (a caller's own provider throwing its
 * HTTP client's error) as a ProviderError naming the provider, with the HTTP status it carries
 * (`status` or `statusCode`) and whether a later attempt may succeed (408, 425, 429, 5xx, or a
 * transport failure such as ECONNRESET), the original kept as its `cause`. Not a bug of the run's.
 */
export function asProviderError(error: unknown, provider: Provider, signal: AbortSignal | undefined): unknown {
  if (error instanceof MultihopError || signal?.aborted) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; statusCode?: unknown; code?: unknown };
  const status = typeof fields.status === 'number' ? fields.status : typeof fields.statusCode === 'number' ? fields.statusCode : undefined;
  const transient = status !== undefined ? status === 408 || status === 425 || status === 429 || status >= 500 : typeof fields.code === 'string' && TRANSIENT_ERRNO.has(fields.code);
  const said = error instanceof Error ? error.message : String(error);
  return new ProviderError(`provider ${provider.id}: ${said}`, { provider: provider.id, ...(status !== undefined ? { status } : {}), attempts: 1, retryable: transient }, { cause: error });
}
