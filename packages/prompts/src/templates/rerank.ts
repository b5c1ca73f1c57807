import { z } from 'zod';
import { definePrompt } from '../definePrompt';

export const rerankSchema = z.object({
  ranking: z.array(z.number().int().nonnegative()).describe('Candidate indices, most relevant first; irrelevant ones may be left out.'),
});

export type RerankOutput = z.infer<typeof rerankSchema>;

/** One candidate as the reranker prompt shows it. */
export interface RerankCandidate {
  index: number;
  title: string;
  text: string;
}

/**
 * The LLM reranker's prompt: a listwise ranking by candidate index (PAR²-RAG's rerank step,
 * appendix A.4: top-100 candidates reranked to 5). Used by `LlmReranker` (this package).
 */
export const rerankPrompt = definePrompt({
  id: 'retriever.rerank',
  role: 'reranker',
  version: '1',
  description: 'Listwise rerank: order candidate passages by relevance to the query; output candidate indices, best first.',
  system:
    'You rank passages for a retrieval system answering multi-hop questions. A passage is relevant when it states a fact needed for the answer or for an intermediate step (a bridge entity). Judge only by the passages given.',
  template: 'Query: {{query}}\n\nCandidates:\n{{candidates}}\n\nReturn "ranking": the candidate indices from most to least relevant.',
  schema: rerankSchema,
  formatters: {
    candidates: (value) => (value as RerankCandidate[]).map((c) => `[${c.index}] ${c.title}: ${c.text}`).join('\n'),
  },
});
