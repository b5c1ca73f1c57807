export const MMOA_RAG_PAPER =
  'Improving Retrieval-Augmented Generation through Multi-Agent Reinforcement Learning (MMOA-RAG, NeurIPS 2025, arXiv 2501.15228, mmoa-rag.md)';

/** The full method and the paper's two agent ablations (mmoa-rag.md, "Generalization": QR+S+G, S+G, QR+G). */
export type MmoaVariant = 'full' | 'no-rewriter' | 'no-selector';

/** The agents a variant runs (the Retriever is fixed and runs in all of them). */
export const MMOA_AGENTS: Readonly<Record<MmoaVariant, readonly MmoaAgent[]>> = {
  full: ['query-rewriter', 'selector', 'generator'],
  'no-rewriter': ['selector', 'generator'],
  'no-selector': ['query-rewriter', 'generator'],
};

/** The paper's three trainable agents (QR, S, G). */
export type MmoaAgent = 'query-rewriter' | 'selector' | 'generator';

export const MMOA_VARIANTS: Readonly<Record<MmoaVariant, { id: string; title: string }>> = {
  full: { id: 'mmoa-rag', title: 'MMOA-RAG (Query Rewriter → Retriever → Selector → Generator, XState)' },
  'no-rewriter': { id: 'mmoa-rag-no-rewriter', title: 'MMOA-RAG ablation S+G: no Query Rewriter (the question is the only search)' },
  'no-selector': { id: 'mmoa-rag-no-selector', title: 'MMOA-RAG ablation QR+G: no Selector (the Generator reads every candidate)' },
};
