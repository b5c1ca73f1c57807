import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAICompletions } from '@langchain/openai';
import { ConfigError, isHttpUrl, ProviderError, RunAbortedError, type ChatMessage, type Provider, type ProviderRequest, type ProviderResponse } from '@multihop/core';

export interface OpenAIProviderOptions {
  /** Model name as the endpoint knows it (gpt-4o-mini, Qwen2.5-7B-Instruct, llama3.1:8b, ...). */
  model: string;
  /** Required by the client; any non-empty string for local servers that ignore it. */
  apiKey: string;
  /** OpenAI-compatible endpoint (vLLM, SGLang, Ollama, llama.cpp server, LM Studio); default OpenAI's. */
  baseURL?: string;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and connection errors (default 2). */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter; a Retry-After header wins (default 500 ms). */
  retryBaseMs?: number;
  /** Longest single wait between retries (default 20 s). */
  retryMaxMs?: number;
  /**
   * Bound on one call's total time, every attempt and every wait between them together (default
   * 180 s). A call that reaches it fails with a ProviderError naming the URL and the bound.
   */
  callDeadlineMs?: number;
  /**
   * Called before each retry, with why the attempt failed and how long the wait is: the CLI prints
   * one line per retry, so a slow or failing endpoint is never a silent wait.
   */
  onRetry?: (retry: RetryNotice) => void;
  temperature?: number;
  maxTokens?: number;
  /** Ask for `response_format: json_object` (servers that support it return bare JSON). */
  jsonMode?: boolean;
  /**
   * Constrained decoding for prompts whose reply declares a pattern (MMOA-RAG's Selector):
   * `'vllm'` sends it as `guided_regex` (vLLM's OpenAI server), `'sglang'` as `regex`. Off by
   * default: OpenAI's own API has no regex mode, and the reply is then checked after the fact.
   */
  guidedDecoding?: 'vllm' | 'sglang';
}

/** What `onRetry` is told before a retry. */
export interface RetryNotice {
  /** `openai:<model>`. */
  provider: string;
  /** The endpoint called: base URL + `/chat/completions`. */
  url: string;
  /** The call's role and prompt. */
  role: string;
  promptId: string;
  /** The attempt that failed (1-based) and the most attempts the call may make. */
  attempt: number;
  maxAttempts: number;
  /** Why it failed (`timed out after 60000 ms`, `429 rate limited`, ...). */
  reason: string;
  status?: number;
  /** How long the provider waits before the next attempt. */
  waitMs: number;
}

/** The default base URL of the OpenAI client. */
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Any OpenAI-compatible chat endpoint through LangChain's ChatOpenAI (the Chat Completions
 * variant, which every compatible server speaks). LangChain's own retries are off
 * (CONVENTIONS: its default retries for ~100 s); retries here are bounded and typed.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const maxRetries = options.maxRetries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 20_000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const callDeadlineMs = options.callDeadlineMs ?? 180_000;
  const id = `openai:${options.model}`;
  if (options.baseURL !== undefined && !isHttpUrl(options.baseURL)) {
    throw new ConfigError(`${id}: baseURL "${options.baseURL}" is not an http(s) URL; write e.g. http://127.0.0.1:8000/v1`);
  }
  const url = `${(options.baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, '')}/chat/completions`;
  const fetchChecked = checkedFetch();
  const client = (kwargs: Record<string, unknown> | undefined, temperature = options.temperature) =>
    new ChatOpenAICompletions({
      model: options.model,
      apiKey: options.apiKey,
      configuration: { ...(options.baseURL ? { baseURL: options.baseURL } : {}), fetch: fetchChecked },
      timeout: timeoutMs,
      maxRetries: 0,
      temperature,
      maxTokens: options.maxTokens,
      modelKwargs: kwargs,
    });
  // One client per distinct request shape: JSON mode or not, a reply pattern for constrained
  // decoding, a per-call temperature (group rollouts sample at the paper's temperature).
  const clients = new Map<string, ChatOpenAICompletions>();
  const chatFor = (request: ProviderRequest): ChatOpenAICompletions => {
    let kwargs: Record<string, unknown> | undefined;
    if (request.format !== 'text') kwargs = options.jsonMode ? { response_format: { type: 'json_object' } } : undefined;
    // A prompt with a plain-text reply form (the judge) is never forced into JSON mode; one whose
    // reply declares a pattern is constrained to it when the server can.
    else if (request.pattern && options.guidedDecoding) kwargs = options.guidedDecoding === 'vllm' ? { guided_regex: request.pattern } : { regex: request.pattern };
    const temperature = request.temperature ?? options.temperature;
    const key = JSON.stringify([kwargs ?? null, temperature ?? null]);
    let chat = clients.get(key);
    if (!chat) {
      chat = client(kwargs, temperature);
      clients.set(key, chat);
    }
    return chat;
  };

  const fingerprint = JSON.stringify({
    id,
    baseURL: options.baseURL ?? null,
    temperature: options.temperature ?? null,
    maxTokens: options.maxTokens ?? null,
    jsonMode: options.jsonMode ?? false,
    guidedDecoding: options.guidedDecoding ?? null,
  });

  return {
    id,
    fingerprint,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      const deadlineAt = Date.now() + callDeadlineMs;
      const maxAttempts = maxRetries + 1;
      const where = `${id} (role ${request.role}) at ${url}`;
      const fail = (message: string, details: { status?: number; attempts: number; retryable: boolean }, cause?: unknown): never => {
        throw new ProviderError(`${where} ${message}`, { provider: id, ...details }, { cause });
      };
      const overDeadline = (attempts: number, last: string, cause?: unknown): never =>
        fail(
          `gave up after ${attempts} attempt(s): the call's deadline of ${callDeadlineMs} ms (all attempts and waits together; callDeadlineMs, MULTIHOP_CALL_DEADLINE_MS in the CLI) has passed; last: ${last}`,
          { attempts, retryable: true },
          cause,
        );
      for (let attempt = 0; ; attempt++) {
        if (request.signal?.aborted) throw new RunAbortedError(request.signal.reason);
        const sentAt = Date.now();
        // The deadline aborts the attempt in flight; the caller's signal still wins (a user abort).
        const deadline = new AbortController();
        const timer = setTimeout(() => deadline.abort(new Error('call deadline')), Math.max(0, deadlineAt - sentAt));
        const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
        try {
          const reply = await chatFor(request).invoke(toLangChain(request.messages), { signal });
          const usage = reply.usage_metadata;
          return {
            text: contentText(reply.content),
            model: id,
            // Servers that omit `usage` leave LangChain's counts at zero or absent: treat both as "none".
            usage:
              usage && usage.input_tokens + usage.output_tokens > 0
                ? { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens }
                : undefined,
          };
        } catch (error) {
          if (request.signal?.aborted) throw new RunAbortedError(request.signal.reason ?? error);
          if (deadline.signal.aborted) overDeadline(attempt + 1, `no reply within ${Date.now() - sentAt} ms`, error);
          if (isAbort(error)) throw new RunAbortedError(error);
          const failure = classify(error);
          // The client reports its own timeout as a bare "Connection error"; name it for what it was.
          if (failure.status === undefined && !failure.reply && Date.now() - sentAt >= timeoutMs * 0.95) {
            failure.message = `timed out after ${timeoutMs} ms (no reply; the per-attempt timeout is timeoutMs)`;
            failure.retryable = true;
          }
          if (!failure.retryable || attempt >= maxRetries) {
            fail(`failed after ${attempt + 1} attempt(s): ${failure.message}`, { status: failure.status, attempts: attempt + 1, retryable: failure.retryable }, error);
          }
          const backoff = Math.min(retryMaxMs, retryBaseMs * 2 ** attempt * (1 + Math.random() * 0.25));
          const waitMs = Math.round(failure.retryAfterMs !== undefined ? Math.min(retryMaxMs, failure.retryAfterMs) : backoff);
          // A wait that would end past the deadline is not taken: the call fails now, saying so.
          if (Date.now() + waitMs >= deadlineAt) overDeadline(attempt + 1, failure.message, error);
          options.onRetry?.({ provider: id, url, role: request.role, promptId: request.promptId, attempt: attempt + 1, maxAttempts, reason: failure.message, status: failure.status, waitMs });
          await sleep(waitMs, request.signal);
        } finally {
          clearTimeout(timer);
        }
      }
    },
  };
}

function toLangChain(messages: ChatMessage[]): BaseMessage[] {
  return messages.map((m) =>
    m.role === 'system' ? new SystemMessage(m.content) : m.role === 'assistant' ? new AIMessage(m.content) : new HumanMessage(m.content),
  );
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === 'string' ? part : (part as { text?: string }).text ?? '')).join('');
  }
  return String(content ?? '');
}

interface Failure {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
  /** The endpoint answered, but not with a chat completion (HTML, no `choices`, broken JSON). */
  reply?: boolean;
}

/** The errors under `error`, outermost first (the client wraps what fetch threw in `cause`). */
function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && typeof e === 'object' && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function classify(error: unknown): Failure {
  const chain = causes(error);
  const reply = chain.find((e): e is ReplyProblem => e instanceof ReplyProblem);
  if (reply) return { retryable: false, message: reply.message, reply: true };
  const e = error as { status?: unknown; name?: string; message?: string; headers?: unknown; constructor?: { name?: string } };
  // LangChain appends a troubleshooting link on its own line to some errors: one line is enough here.
  const message = (e?.message ?? String(error)).replace(/\s*Troubleshooting URL: \S+\s*/g, ' ').trim();
  const status = typeof e?.status === 'number' ? e.status : undefined;
  if (status !== undefined) {
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const hint =
      status === 401 || status === 403
        ? ' (the endpoint refused the API key: check OPENAI_API_KEY, or the variable the config names in apiKeyEnv)'
        : status === 404
          ? ' (is the model name one the endpoint serves, and does the base URL end in /v1?)'
          : '';
    return { retryable, status, message: `${message}${hint}`, retryAfterMs: retryAfter(e.headers) };
  }
  const code = chain.map((c) => (c as { code?: unknown }).code).find((c): c is string => typeof c === 'string' && /^E[A-Z]+$/.test(c));
  const kind = `${e?.name ?? ''} ${e?.constructor?.name ?? ''}`;
  const transient = /Timeout|Connection|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|fetch failed/i;
  const named =
    code === 'ECONNREFUSED'
      ? 'connection refused (is the server running and listening on that port?)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `host not found (${code})`
        : code
          ? `${message.replace(/\.$/, '')} (${code})`
          : message;
  return { retryable: transient.test(kind) || transient.test(message) || code !== undefined, message: named };
}

function retryAfter(headers: unknown): number | undefined {
  const get = (name: string): string | null | undefined =>
    headers && typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get(name)
      : (headers as Record<string, string> | undefined)?.[name];
  const ms = Number(get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && get('retry-after-ms') != null) return ms;
  const raw = get('retry-after');
  if (raw == null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * An endpoint's 200 reply that is no chat completion. Thrown from inside the client's fetch, it
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

/**
 * The client's fetch, checking a 200 reply before the client reads it: LangChain reads
 * `choices[0].message` of whatever came back, so an HTML page or a JSON body without `choices`
 * would otherwise fail as "Cannot read properties of undefined". A JSON body sent with another
 * content type is passed on as JSON.
 */
function checkedFetch(): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status !== 200) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.text();
    if (text.trim() === '') throw new ReplyProblem(`it returned a 200 reply with an empty body${type ? ` (${type})` : ''}, not a chat completion`);
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
    const choices = (body as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(choices) || choices.length === 0 || typeof (choices[0] as { message?: unknown })?.message !== 'object') {
      const what = !Array.isArray(choices) ? 'no `choices`' : choices.length === 0 ? 'an empty `choices` list' : 'no `choices[0].message`';
      throw new ReplyProblem(`it returned a 200 reply with ${what}, not a chat completion: ${snippet(text)}`);
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
