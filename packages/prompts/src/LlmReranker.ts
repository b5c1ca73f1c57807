import { sliceWhole, type ModelPort, type PromptTemplate, type Reranker, type SearchHit } from '@multihop/core';
import { rerankPrompt, type RerankCandidate, type RerankOutput } from './templates/rerank';

export interface LlmRerankerOptions {
  /** Defaults to `rerankPrompt` (id `retriever.rerank`, role `reranker`). */
  prompt?: PromptTemplate<RerankOutput>;
  /** Characters of each candidate's text shown to the model (default 600), to bound the prompt. */
  maxChars?: number;
}

/**
 * Listwise LLM reranking through the model port. The model's ranking is trusted only as far as it
 * is valid: unknown and repeated indices are dropped, and candidates it left out follow in their
 * retrieval order, so a sloppy reply can reorder but never lose a hit.
 */
export class LlmReranker implements Reranker {
  readonly id: string;
  private readonly prompt: PromptTemplate<RerankOutput>;
  private readonly maxChars: number;

  constructor(
    private readonly model: ModelPort,
    options: LlmRerankerOptions = {},
  ) {
    this.prompt = options.prompt ?? rerankPrompt;
    this.maxChars = options.maxChars ?? 600;
    this.id = `llm:${this.prompt.id}@${this.prompt.version}`;
  }

  async rerank(query: string, hits: SearchHit[], options: { k?: number; signal?: AbortSignal } = {}): Promise<SearchHit[]> {
    if (hits.length === 0) return [];
    const candidates: RerankCandidate[] = hits.map((h, index) => ({ index, title: h.title, text: sliceWhole(h.text, this.maxChars) }));
    const { output } = await this.model.call({ prompt: this.prompt, vars: { query, candidates }, signal: options.signal });
    const order: number[] = [];
    for (const i of output.ranking) if (i < hits.length && !order.includes(i)) order.push(i);
    for (let i = 0; i < hits.length; i++) if (!order.includes(i)) order.push(i);
    const k = options.k ?? hits.length;
    return order.slice(0, k).map((i, position) => ({ ...(hits[i] as SearchHit), rank: position + 1, score: hits.length - position }));
  }
}
