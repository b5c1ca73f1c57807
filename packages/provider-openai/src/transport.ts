import { abortableSleep, ProviderError, retryAfterMs, RunAbortedError, type ProviderRetryNotice } from '@multihop/core';

/**
 * What the chat provider and the embedder share: the checked fetch, the classification of a failed
 * attempt, and the bounded retry loop with its notices and deadline.
 */

/**
 * What `onRetry` is told before a retry: core's notice (provider `openai:<model>`, the call's role
 * and prompt, `embedder` and `embeddings` for the embedder; attempt n of m; why; the wait) and the
 * endpoint called.
 */
export interface RetryNotice extends ProviderRetryNotice {
  /** Base URL + `/chat/completions` (or `/embeddings` for the embedder). */
  url: string;
}

export interface RetryPolicy {
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
  /** The option that sets the per-attempt timeout, for the timeout message. */
  timeoutOption: string;
  callDeadlineMs: number;
  onRetry?: (retry: RetryNotice) => void;
}

export interface CallSite {
  /** `openai:<model>`. */
  provider: string;
  url: string;
  /** How errors begin: `openai:m (role writer) at http://…/chat/completions`. */
  where: string;
  role: string;
  promptId: string;
  signal?: AbortSignal;
}

/**
 * One call: attempts `send` until it succeeds, a failure is not retryable, the retries are spent
 * or the call's deadline comes. Every failure is a one-line ProviderError beginning with
 * `site.where`; an abort is a RunAbortedError.
 */
export async function withRetries<T>(policy: RetryPolicy, site: CallSite, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { maxRetries, retryBaseMs, retryMaxMs, timeoutMs, callDeadlineMs } = policy;
  const deadlineAt = Date.now() + callDeadlineMs;
  const maxAttempts = maxRetries + 1;
  const deadlineName = `the call's deadline of ${callDeadlineMs} ms (all attempts and waits together; callDeadlineMs, MULTIHOP_CALL_DEADLINE_MS in the CLI)`;
  const fail = (message: string, details: { status?: number; attempts: number; retryable: boolean }, cause?: unknown): never => {
    throw new ProviderError(`${site.where} ${message}`, { provider: site.provider, ...details }, { cause });
  };
  const overDeadline = (attempts: number, last: string, cause?: unknown): never =>
    fail(`gave up after ${attempts} attempt(s): ${deadlineName} has passed; last: ${last}`, { attempts, retryable: true }, cause);
  for (let attempt = 0; ; attempt++) {
    if (site.signal?.aborted) throw new RunAbortedError(site.signal.reason);
    const sentAt = Date.now();
    // The deadline aborts the attempt in flight; the caller's signal still wins (a user abort).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('call deadline')), Math.max(0, deadlineAt - sentAt));
    const signal = site.signal ? AbortSignal.any([site.signal, deadline.signal]) : deadline.signal;
    try {
      return await send(signal);
    } catch (error) {
      if (site.signal?.aborted) throw new RunAbortedError(site.signal.reason ?? error);
      if (deadline.signal.aborted) overDeadline(attempt + 1, `no reply within ${Date.now() - sentAt} ms`, error);
      if (isAbort(error)) throw new RunAbortedError(error);
      const failure = classify(error, site.url);
      // The client reports its own timeout as a bare "Connection error"; name it for what it was.
      if (failure.status === undefined && !failure.reply && !failure.config && Date.now() - sentAt >= timeoutMs * 0.95) {
        failure.message = `timed out after ${timeoutMs} ms (no reply; the per-attempt timeout is ${policy.timeoutOption})`;
        failure.retryable = true;
      }
      if (!failure.retryable || attempt >= maxRetries) {
        fail(
          `failed after ${attempt + 1} attempt(s): ${failure.message}`,
          { status: failure.status, attempts: attempt + 1, retryable: failure.retryable, ...(failure.setting ? { setting: failure.setting } : {}) },
          error,
        );
      }
      let waitMs: number;
      if (failure.retryAfterMs !== undefined) {
        // The server's Retry-After is honoured in full, or the call fails now saying why: a
        // shorter wait would only be refused again.
        waitMs = Math.round(failure.retryAfterMs);
        if (Date.now() + waitMs >= deadlineAt) {
          fail(
            `failed after ${attempt + 1} attempt(s): ${failure.message}; the server asked to wait ${seconds(waitMs)} (Retry-After), more than ${deadlineName} allows`,
            { status: failure.status, attempts: attempt + 1, retryable: true },
            error,
          );
        }
      } else {
        waitMs = Math.round(Math.min(retryMaxMs, retryBaseMs * 2 ** attempt * (1 + Math.random() * 0.25)));
        // A wait that would end past the deadline is not taken: the call fails now, saying so.
        if (Date.now() + waitMs >= deadlineAt) overDeadline(attempt + 1, failure.message, error);
      }
      policy.onRetry?.({ provider: site.provider, url: site.url, role: site.role, promptId: site.promptId, attempt: attempt + 1, maxAttempts, reason: failure.message, status: failure.status, waitMs });
      await abortableSleep(waitMs, site.signal);
    } finally {
      clearTimeout(timer);
    }
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

interface Failure {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
  /** The endpoint answered, but not with what was asked for (HTML, no `choices`, broken JSON). */
  reply?: boolean;
  /** The request could not be sent as configured (a port fetch refuses). */
  config?: boolean;
  /** A 400's `param` when it names a request setting, not the messages (ProviderError.details.setting). */
  setting?: string;
}

/** The errors under `error`, outermost first (the client wraps what fetch threw in `cause`). */
function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && typeof e === 'object' && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

export function classify(error: unknown, url?: string): Failure {
  const chain = causes(error);
  const reply = chain.find((e): e is ReplyProblem => e instanceof ReplyProblem);
  if (reply) return { retryable: false, message: reply.message, reply: true };
  const e = error as { name?: string; message?: string; constructor?: { name?: string } };
  // LangChain appends a troubleshooting link on its own line to some errors: one line is enough here.
  const message = (e?.message ?? String(error))
    .replace(/\s*Troubleshooting URL: \S+\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // LangChain re-wraps some status errors (a context overflow) without the status: it is on a cause.
  const withStatus = chain.find((c): c is { status: number; headers?: unknown } => typeof (c as { status?: unknown }).status === 'number');
  if (withStatus) {
    const status = withStatus.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const hint =
      status === 401 || status === 403
        ? ' (the endpoint refused the API key: check OPENAI_API_KEY, or the variable the config names in apiKeyEnv)'
        : status === 404
          ? ' (is the model name one the endpoint serves, and does the base URL end in /v1?)'
          : '';
    // OpenAI names the field it refused (`param`): a sampling setting is the configuration's, the messages (a prompt over the context) the question's.
    const param = (withStatus as { param?: unknown }).param;
    const setting = status === 400 && typeof param === 'string' && param !== '' && !/^(messages|input|prompt)\b/.test(param) ? param : undefined;
    return { retryable, status, message: `${message}${hint}`, retryAfterMs: retryAfterMs(withStatus.headers), ...(setting ? { setting } : {}) };
  }
  const inner = chain.length > 1 ? (chain[chain.length - 1] as { message?: unknown; code?: unknown }) : undefined;
  const innerMessage = typeof inner?.message === 'string' ? inner.message.replace(/\s+/g, ' ').trim() : '';
  const code = chain.map((c) => (c as { code?: unknown }).code).find((c): c is string => typeof c === 'string' && /^[A-Z][A-Z0-9_]+$/.test(c));
  if (innerMessage === 'bad port') {
    // fetch refuses the Fetch standard's blocked ports (6000, 6665-6669, 5060, 9, ...) before connecting.
    const port = url ? portOf(url) : undefined;
    return {
      retryable: false,
      config: true,
      message: `${message.replace(/\.$/, '')}: bad port (fetch refuses to connect to port${port ? ` ${port}` : ''}, one the Fetch standard blocks; serve the endpoint on another port)`,
    };
  }
  const kind = `${e?.name ?? ''} ${e?.constructor?.name ?? ''}`;
  const transient = /Timeout|Connection|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|fetch failed|other side closed/i;
  const named =
    code === 'ECONNREFUSED'
      ? 'connection refused (is the server running and listening on that port?)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `host not found (${code})`
        : innerMessage && innerMessage !== message
          ? `${message.replace(/\.$/, '')}: ${innerMessage}${code ? ` (${code})` : ''}`
          : code
            ? `${message.replace(/\.$/, '')} (${code})`
            : message;
  return { retryable: transient.test(kind) || transient.test(message) || code !== undefined, message: named };
}

function portOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.port || (u.protocol === 'https:' ? '443' : '80');
  } catch {
    return undefined;
  }
}


/**
 * An endpoint's 200 reply that is not what was asked for. Thrown from inside the client's fetch, it
 * reaches the provider as the `cause` of the client's connection error. Its toString is fixed: the
 * client reads "timed out" in an error's text as a timeout, and a proxy's page may well say it.
 */
class ReplyProblem extends Error {
  override toString(): string {
    return 'ReplyProblem';
  }
}

/** The start of a reply body, on one line, for an error message. */
function snippet(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

/** What a 200 reply's JSON must be: `check` says what is wrong with it, or nothing; `noun` names what was expected. */
export interface ReplyShape {
  noun: string;
  /** What is wrong with a 200 reply's body, given the request's (JSON-parsed) body; undefined if nothing. */
  check: (body: unknown, request: unknown) => string | undefined;
  /** The body the client is given, when it must differ from the one that came (default: as it came). */
  normalise?: (body: unknown) => unknown;
}

export const chatCompletionShape: ReplyShape = {
  noun: 'a chat completion',
  check: (body) => {
    const choices = (body as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices) || choices.length === 0 || typeof (choices[0] as { message?: unknown })?.message !== 'object') {
      return !Array.isArray(choices) ? 'no `choices`' : choices.length === 0 ? 'an empty `choices` list' : 'no `choices[0].message`';
    }
    return undefined;
  },
};

export const embeddingListShape: ReplyShape = {
  noun: 'an embeddings list',
  check: (body, request) => {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return 'no `data` list';
    const bad = data.findIndex((d) => {
      const embedding = (d as { embedding?: unknown } | null)?.embedding;
      return !Array.isArray(embedding) && typeof embedding !== 'string';
    });
    if (bad >= 0) return `no \`data[${bad}].embedding\``;
    // LangChain pairs data[j] with input[j]; the wire pairs them by `index`, which a server or proxy may send out of order.
    const input = (request as { input?: unknown } | null)?.input;
    const expected = Array.isArray(input) ? input.length : typeof input === 'string' ? 1 : undefined;
    if (expected !== undefined && data.length !== expected) return `${data.length} vector(s) for ${expected} input(s)`;
    const indices = data.map((d) => (d as { index?: unknown }).index);
    if (indices.every((i) => typeof i === 'number')) {
      const seen = new Set(indices);
      if (seen.size !== data.length || indices.some((i) => !Number.isInteger(i) || (i as number) < 0 || (i as number) >= data.length)) {
        return `indices ${JSON.stringify(indices)} that are not each of 0…${data.length - 1} once`;
      }
    }
    return undefined;
  },
  normalise: (body) => {
    const data = (body as { data: Array<{ index?: unknown }> }).data;
    if (!data.every((d) => typeof d.index === 'number')) return body;
    return { ...(body as object), data: [...data].sort((a, b) => (a.index as number) - (b.index as number)) };
  },
};

/**
 * The client's fetch, checking a reply before the client reads it. A 200 reply must be JSON of the
 * expected shape: LangChain reads `choices[0].message` (or `data[i].embedding`) of whatever came
 * back, so an HTML page or a JSON body without `choices` would otherwise fail as "Cannot read
 * properties of undefined". A JSON body sent with another content type is passed on as JSON.
 * An error reply's body is passed on in the shape the OpenAI SDK reads (`{"error": {"message"}}`):
 * vLLM and SGLang send `{"object": "error", "message": …}`, which the SDK would report as
 * "400 status code (no body)"; a proxy's HTML page becomes its title or first words.
 */
export function checkedFetch(shape: ReplyShape): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status >= 400) return errorReply(response);
    // Every other status is checked as a 200 is: a 204 or a gateway's 202 has no completion either.
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.text();
    if (text.trim() === '') throw new ReplyProblem(`it returned a ${response.status} reply with an empty body${type ? ` (${type})` : ''}, not ${shape.noun}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      if (!/json/i.test(type)) {
        const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
        throw new ReplyProblem(`it returned ${type || 'a reply with no content type'}, not JSON${title ? ` (title "${title}")` : ''}: ${snippet(text)}`);
      }
      throw new ReplyProblem(`it returned broken JSON (${(error as Error).message}): ${snippet(text)}`);
    }
    const wrong = shape.check(body, requestBody(init));
    if (wrong) throw new ReplyProblem(`it returned a ${response.status} reply with ${wrong}, not ${shape.noun}: ${snippet(text)}`);
    const out = shape.normalise ? JSON.stringify(shape.normalise(body)) : text;
    return new Response(out, { status: response.status, statusText: response.statusText, headers: jsonHeaders(response.headers) });
  };
}

/** The request's body as JSON, when it was sent as a JSON string; else undefined. */
function requestBody(init: RequestInit | undefined): unknown {
  if (typeof init?.body !== 'string') return undefined;
  try {
    return JSON.parse(init.body);
  } catch {
    return undefined;
  }
}

async function errorReply(response: Response): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = (body as { error?: unknown } | undefined)?.error;
  let out = text;
  if (text.trim() !== '' && !(error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')) {
    const top = (body && typeof body === 'object' ? body : {}) as { message?: unknown; detail?: unknown; type?: unknown; code?: unknown; param?: unknown };
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const message =
      typeof top.message === 'string'
        ? top.message
        : typeof error === 'string'
          ? error
          : typeof top.detail === 'string'
            ? top.detail
            : body !== undefined
              ? JSON.stringify(body)
              : title
                ? `${title} (${(response.headers.get('content-type') ?? 'no content type').split(';')[0]} page)`
                : snippet(text, 200);
    out = JSON.stringify({ error: { message: message.replace(/\s+/g, ' ').trim(), type: top.type, code: top.code, param: top.param } });
  }
  return new Response(out, { status: response.status, statusText: response.statusText, headers: jsonHeaders(response.headers) });
}

function jsonHeaders(original: Headers): Headers {
  const headers = new Headers(original);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  headers.delete('content-encoding');
  return headers;
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

