import { OpenAIEmbeddings } from '@langchain/openai';
import { ConfigError, isHttpUrl, type Embedder } from '@multihop/core';
import { checkedFetch, embeddingListShape, withRetries, type RetryNotice, type RetryPolicy } from './transport';

export interface OpenAIEmbedderOptions {
  /** Embedding model name, e.g. `text-embedding-3-small` or a local server's model. */
  model: string;
  /** The vector size the model returns; recorded in the manifest and used for the table schema. */
  dimensions: number;
  /** Any string for local servers; defaults to OPENAI_API_KEY. */
  apiKey?: string;
  /** OpenAI-compatible endpoint (vLLM, Ollama, LM Studio, llama.cpp server, Azure proxy). */
  baseURL?: string;
  /** Ask the API to shorten vectors (text-embedding-3 models only). */
  requestDimensions?: boolean;
  /** Texts per request (default 256). */
  batchSize?: number;
  /** Per-request timeout in ms (default 30 s). */
  timeout?: number;
  /** Retries after the first attempt on 429, 408, 409, 5xx, timeouts and dropped connections (default 2). */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter; a Retry-After header wins (default 500 ms). */
  retryBaseMs?: number;
  /** Longest backoff wait between retries (default 20 s); a Retry-After is waited in full within callDeadlineMs. */
  retryMaxMs?: number;
  /** Bound on one embed() call's total time, every attempt and wait together (default 180 s). */
  callDeadlineMs?: number;
  /** Called before each retry (role `embedder`, prompt `embeddings`), as the chat provider's onRetry. */
  onRetry?: (retry: RetryNotice) => void;
}

/** The default base URL of the OpenAI client. */
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Embeddings from any OpenAI-compatible endpoint through @langchain/openai's OpenAIEmbeddings, with
 * the chat provider's checked replies, bounded typed retries, call deadline and abort.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly options: OpenAIEmbedderOptions;
  private readonly apiKey: string;
  private readonly provider: string;
  private readonly url: string;
  private readonly policy: RetryPolicy;
  private readonly fetchChecked = checkedFetch(embeddingListShape);

  constructor(options: OpenAIEmbedderOptions) {
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (!apiKey) throw new ConfigError('OpenAIEmbedder needs `apiKey` or OPENAI_API_KEY (any string for a local server)');
    if (options.baseURL !== undefined && !isHttpUrl(options.baseURL)) {
      throw new ConfigError(`embedder openai:${options.model}: baseURL "${options.baseURL}" is not an http(s) URL; write e.g. http://127.0.0.1:8000/v1`);
    }
    this.options = options;
    this.apiKey = apiKey;
    this.dimensions = options.dimensions;
    this.id = `openai:${options.model}:${options.dimensions}${options.baseURL ? `@${options.baseURL}` : ''}`;
    this.provider = `openai:${options.model}`;
    this.url = `${(options.baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, '')}/embeddings`;
    this.policy = {
      maxRetries: options.maxRetries ?? 2,
      retryBaseMs: options.retryBaseMs ?? 500,
      retryMaxMs: options.retryMaxMs ?? 20_000,
      timeoutMs: options.timeout ?? 30_000,
      timeoutOption: 'timeout',
      callDeadlineMs: options.callDeadlineMs ?? 180_000,
      onRetry: options.onRetry,
    };
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const site = { provider: this.provider, url: this.url, where: `embedder ${this.provider} at ${this.url}`, role: 'embedder', promptId: 'embeddings', signal };
    // One request per batch, each with its own attempts and deadline: a failed batch is sent again
    // alone, not with every batch of the call (an ingest embeds thousands of texts per call).
    const size = Math.max(1, this.options.batchSize ?? 256);
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += size) {
      const batch = texts.slice(start, start + size);
      vectors.push(...(await withRetries(this.policy, site, (attemptSignal) => this.client(attemptSignal).embedDocuments(batch))));
    }
    for (const v of vectors) {
      if (v.length !== this.dimensions) {
        throw new ConfigError(`embedder ${this.id} returned ${v.length} dimensions, configured for ${this.dimensions}`);
      }
    }
    return vectors;
  }

  /**
   * A client for one attempt: OpenAIEmbeddings takes no AbortSignal, so the attempt's signal (the
   * caller's and the call deadline's) reaches the request through the client's fetch.
   */
  private client(signal: AbortSignal): OpenAIEmbeddings {
    const fetchChecked = this.fetchChecked;
    const fetchWithSignal: typeof fetch = (input, init) =>
      fetchChecked(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    return new OpenAIEmbeddings({
      model: this.options.model,
      apiKey: this.apiKey,
      dimensions: this.options.requestDimensions ? this.options.dimensions : undefined,
      batchSize: this.options.batchSize ?? 256,
      // Floats, not the client's default base64: servers that ignore `encoding_format` send floats,
      // which the client would then decode as base64 into a few meaningless numbers.
      encodingFormat: 'float',
      timeout: this.policy.timeoutMs,
      // Retries are the loop's (bounded, with notices and a deadline), not LangChain's.
      maxRetries: 0,
      // The endpoint this embedder names, never one LangChain finds in the environment (OPENAI_API_BASE).
      configuration: { baseURL: this.options.baseURL ?? OPENAI_BASE_URL, fetch: fetchWithSignal },
    });
  }
}
