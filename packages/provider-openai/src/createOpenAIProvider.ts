import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAICompletions } from '@langchain/openai';
import { ConfigError, isHttpUrl, type ChatMessage, type GuidedDecoding, type Provider, type ProviderRequest, type ProviderResponse } from '@multihop/core';
import { chatCompletionShape, checkedFetch, withRetries, type RetryNotice, type RetryPolicy } from './transport';

export type { RetryNotice } from './transport';

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
  /**
   * Longest backoff wait between retries (default 20 s). A server's Retry-After is waited in full
   * when it fits within callDeadlineMs; when it does not, the call fails at once saying so.
   */
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
  /** Sent only when set (here or per call): otherwise the server's default temperature applies. */
  temperature?: number;
  maxTokens?: number;
  /** Ask for `response_format: json_object` (servers that support it return bare JSON). Default off. */
  jsonMode?: boolean;
  /**
   * Constrained decoding for prompts whose reply declares a pattern (MMOA-RAG's Selector):
   * `'vllm'` sends it as `structured_outputs: {regex}` (vLLM 0.10.2 and later; vLLM 0.12.0 removed
   * the older field), `'vllm-legacy'` as `guided_regex` (vLLM before 0.12.0), `'sglang'` as
   * `regex`. Off by default: OpenAI's own API has no regex mode, and the reply is then checked
   * after the fact.
   */
  guidedDecoding?: GuidedDecoding;
}

/** How a reply pattern is sent to the server, by server (see `guidedDecoding`): core's, which the config file's field is checked against. */
export type { GuidedDecoding };

function guidedKwargs(kind: GuidedDecoding, pattern: string): Record<string, unknown> {
  return kind === 'vllm' ? { structured_outputs: { regex: pattern } } : kind === 'vllm-legacy' ? { guided_regex: pattern } : { regex: pattern };
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
  const fetchChecked = checkedFetch(chatCompletionShape);
  const policy: RetryPolicy = { maxRetries, retryBaseMs, retryMaxMs, timeoutMs, timeoutOption: 'timeoutMs, MULTIHOP_TIMEOUT_MS in the CLI', callDeadlineMs, onRetry: options.onRetry };
  const client = (kwargs: Record<string, unknown> | undefined, temperature = options.temperature) =>
    new ChatOpenAICompletions({
      model: options.model,
      apiKey: options.apiKey,
      // Always the endpoint this provider names: left out, LangChain would take OPENAI_API_BASE or
      // LANGSMITH_GATEWAY from the environment, and send the key to a host no label shows.
      configuration: { baseURL: options.baseURL ?? OPENAI_BASE_URL, fetch: fetchChecked },
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
    else if (request.pattern && options.guidedDecoding) kwargs = guidedKwargs(options.guidedDecoding, request.pattern);
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
    // 'vllm' sent `guided_regex` before, which vLLM 0.12+ ignores: its cached replies were unconstrained.
    guidedDecoding: options.guidedDecoding === 'vllm' ? 'vllm:structured_outputs' : (options.guidedDecoding ?? null),
  });

  return {
    id,
    fingerprint,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      const site = { provider: id, url, where: `${id} (role ${request.role}) at ${url}`, role: request.role, promptId: request.promptId, signal: request.signal };
      const reply = await withRetries(policy, site, (signal) => chatFor(request).invoke(toLangChain(request.messages), { signal }));
      const usage = reply.usage_metadata;
      const promptTokens = tokenCount(usage?.input_tokens);
      const completionTokens = tokenCount(usage?.output_tokens);
      // LangChain keeps the choice's finish_reason in response_metadata and a reasoning model's
      // separate `reasoning_content` in additional_kwargs.
      const finishReason = reply.response_metadata?.['finish_reason'];
      const reasoning = reply.additional_kwargs?.['reasoning_content'];
      return {
        text: contentText(reply.content),
        model: id,
        // Servers that omit `usage` leave LangChain's counts at zero or absent: treat both as "none"
        // (the port estimates, and says so), and so are counts that are no numbers of tokens.
        usage: promptTokens !== undefined && completionTokens !== undefined && promptTokens + completionTokens > 0 ? { promptTokens, completionTokens } : undefined,
        ...(typeof finishReason === 'string' && finishReason ? { finishReason } : {}),
        ...(typeof reasoning === 'string' && reasoning ? { reasoning } : {}),
      };
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

/** A token count as the server sent it: a number, or digits in a string (some servers quote them); else none. */
function tokenCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
