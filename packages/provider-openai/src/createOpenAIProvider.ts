import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAICompletions } from '@langchain/openai';
import { ProviderError, RunAbortedError, type ChatMessage, type Provider, type ProviderRequest, type ProviderResponse } from '@multihop/core';

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
  const id = `openai:${options.model}`;
  const client = (kwargs: Record<string, unknown> | undefined, temperature = options.temperature) =>
    new ChatOpenAICompletions({
      model: options.model,
      apiKey: options.apiKey,
      configuration: options.baseURL ? { baseURL: options.baseURL } : undefined,
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
      for (let attempt = 0; ; attempt++) {
        if (request.signal?.aborted) throw new RunAbortedError(request.signal.reason);
        const sentAt = Date.now();
        try {
          const reply = await chatFor(request).invoke(toLangChain(request.messages), { signal: request.signal });
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
          if (request.signal?.aborted || isAbort(error)) throw new RunAbortedError(request.signal?.reason ?? error);
          const failure = classify(error);
          // The client reports its own timeout as a bare "Connection error"; name it for what it was.
          if (failure.status === undefined && Date.now() - sentAt >= timeoutMs * 0.95) {
            failure.message = `timed out after ${timeoutMs} ms (${failure.message})`;
            failure.retryable = true;
          }
          if (!failure.retryable || attempt >= maxRetries) {
            throw new ProviderError(
              `${id}${options.baseURL ? ` at ${options.baseURL}` : ''} failed after ${attempt + 1} attempt(s): ${failure.message}`,
              { provider: id, status: failure.status, attempts: attempt + 1, retryable: failure.retryable },
              { cause: error },
            );
          }
          const backoff = Math.min(retryMaxMs, retryBaseMs * 2 ** attempt * (1 + Math.random() * 0.25));
          await sleep(failure.retryAfterMs !== undefined ? Math.min(retryMaxMs, failure.retryAfterMs) : backoff, request.signal);
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
}

function classify(error: unknown): Failure {
  const e = error as { status?: unknown; name?: string; message?: string; headers?: unknown; constructor?: { name?: string } };
  const message = e?.message ?? String(error);
  const status = typeof e?.status === 'number' ? e.status : undefined;
  if (status !== undefined) {
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, status, message, retryAfterMs: retryAfter(e.headers) };
  }
  const kind = `${e?.name ?? ''} ${e?.constructor?.name ?? ''}`;
  const transient = /Timeout|Connection|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|fetch failed/i;
  return { retryable: transient.test(kind) || transient.test(message), message };
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
