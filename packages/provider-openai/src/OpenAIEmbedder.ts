import { OpenAIEmbeddings } from '@langchain/openai';
import { ConfigError, ProviderError, type Embedder } from '@multihop/core';

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
  batchSize?: number;
  timeout?: number;
  /** Kept small: the client's default retries for ~100 s before failing (CONVENTIONS.md). */
  maxRetries?: number;
}

/** Embeddings from any OpenAI-compatible endpoint through @langchain/openai's OpenAIEmbeddings. */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly client: OpenAIEmbeddings;

  constructor(options: OpenAIEmbedderOptions) {
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (!apiKey) throw new ConfigError('OpenAIEmbedder needs `apiKey` or OPENAI_API_KEY (any string for a local server)');
    this.dimensions = options.dimensions;
    this.id = `openai:${options.model}:${options.dimensions}${options.baseURL ? `@${options.baseURL}` : ''}`;
    this.client = new OpenAIEmbeddings({
      model: options.model,
      apiKey,
      dimensions: options.requestDimensions ? options.dimensions : undefined,
      batchSize: options.batchSize ?? 256,
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      configuration: options.baseURL ? { baseURL: options.baseURL } : undefined,
    });
  }

  async embed(texts: string[]): Promise<number[][]> {
    let vectors: number[][];
    try {
      vectors = await this.client.embedDocuments(texts);
    } catch (cause) {
      throw new ProviderError(`embedding request failed: ${(cause as Error).message}`, { provider: this.id, attempts: 1, retryable: true }, { cause });
    }
    for (const v of vectors) {
      if (v.length !== this.dimensions) {
        throw new ConfigError(`embedder ${this.id} returned ${v.length} dimensions, configured for ${this.dimensions}`);
      }
    }
    return vectors;
  }
}
