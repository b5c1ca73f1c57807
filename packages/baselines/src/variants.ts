/** Each baseline's workflow id, title and the paper it comes from (as the method papers cite it). */
export const BASELINES = {
  direct: { id: 'direct', title: 'Direct inference', paper: 'Direct inference (baseline in PAR²-RAG §4.1, OPERA §4, HERA §5.1)' },
  cot: { id: 'cot', title: 'Chain-of-thought', paper: 'Chain-of-Thought prompting (Wei et al., 2022), as used in PAR²-RAG §4.1' },
  rag: { id: 'single-turn-rag', title: 'Single-turn RAG', paper: 'Single-turn retrieval-augmented generation (Lewis et al., 2020)' },
  ircot: { id: 'ircot', title: 'IRCoT (interleaved retrieval and chain-of-thought)', paper: 'IRCoT: interleaving retrieval with chain-of-thought reasoning (Trivedi et al., 2023)' },
  react: { id: 'react', title: 'ReAct (reason + act)', paper: 'ReAct: synergizing reasoning and acting (Yao et al., 2023)' },
} as const;
