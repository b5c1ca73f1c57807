import type { Par2Variant } from './graph';

export const PAR2_PAPER = 'PAR²-RAG: Planned Active Retrieval and Reasoning for Multi-Hop Question Answering (par2-rag.md)';

/** The workflow id and title of the full method and of the paper's two module variants (§4.1). */
export const PAR2_VARIANTS: Readonly<Record<Par2Variant, { id: string; title: string }>> = {
  full: { id: 'par2-rag', title: 'PAR²-RAG (Coverage Anchor + Iterative Chain)' },
  'coverage-anchor': { id: 'par2-coverage-anchor', title: 'PAR²-RAG module: Coverage Anchor only' },
  'iterative-chain': { id: 'par2-iterative-chain', title: 'PAR²-RAG module: Iterative Chain only' },
};
