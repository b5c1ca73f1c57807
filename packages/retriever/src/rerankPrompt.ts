import { jsonSchemaOf, type ChatMessage, type PromptTemplate } from '@multihop/core';
import { z } from 'zod';

export const RerankOutput = z.object({
  /** Candidate indices (0-based, as numbered in the prompt), most relevant first; may omit irrelevant ones. */
  ranking: z.array(z.number().int().nonnegative()),
});
export type RerankOutput = z.infer<typeof RerankOutput>;

export interface RerankCandidate {
  index: number;
  title: string;
  text: string;
}

const SYSTEM =
  'You rank passages for a retrieval system answering multi-hop questions. A passage is relevant when it states a fact needed ' +
  'for the answer or for an intermediate step (a bridge entity). Judge only by the passages given.';

/**
 * The LLM reranker's prompt (PAR²-RAG's rerank step, a listwise ranking by candidate index).
 * Lives here until @multihop/prompts takes it over; id, role and schema are the contract.
 */
export const rerankPrompt: PromptTemplate<RerankOutput> & { description: string } = {
  id: 'retriever.rerank',
  role: 'reranker',
  version: '1',
  description: 'Listwise rerank: order candidate passages by relevance to the query; output candidate indices, best first.',
  schema: RerankOutput,
  render(vars: Record<string, unknown>): ChatMessage[] {
    const query = vars.query;
    const candidates = vars.candidates;
    if (typeof query !== 'string') throw new TypeError('prompt retriever.rerank: missing variable "query"');
    if (!Array.isArray(candidates)) throw new TypeError('prompt retriever.rerank: missing variable "candidates"');
    const list = (candidates as RerankCandidate[]).map((c) => `[${c.index}] ${c.title}: ${c.text}`).join('\n');
    const contract = `Respond with one JSON object and nothing else. It must satisfy this JSON Schema:\n${JSON.stringify(jsonSchemaOf(RerankOutput))}`;
    return [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: `Query: ${query}\n\nCandidates:\n${list}\n\nReturn "ranking": the candidate indices from most to least relevant.\n\n${contract}`,
      },
    ];
  },
};
