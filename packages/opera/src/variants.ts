import type { OperaVariant } from './machine';

export const OPERA_PAPER =
  'OPERA: A Reinforcement Learning–Enhanced Orchestrated Planner-Executor Architecture for Reasoning-Oriented Multi-Hop Retrieval (arXiv 2508.16438, opera.md)';

/** The workflow id and title of the full method and of the paper's two ablations. */
export const OPERA_VARIANTS: Readonly<Record<OperaVariant, { id: string; title: string }>> = {
  full: { id: 'opera', title: 'OPERA (Plan Agent + Analysis-Answer + Rewrite, XState)' },
  'no-plan': { id: 'opera-no-plan', title: 'OPERA ablation: no Plan Agent (analysis and rewrite on the raw question)' },
  'no-rewrite': { id: 'opera-no-rewrite', title: 'OPERA ablation: no Rewrite Agent' },
};
