export const HERA_PAPER = 'Experience as a Compass: Multi-agent RAG with Evolving Orchestration and Agent Prompts (HERA; Li & Ramakrishnan; hera.md)';

/**
 * The paper's system and its ablations (§5.2): without the experience library (the orchestrator
 * retrieves no experience), and without RoPE (evolved prompts are not applied).
 */
export type HeraVariant = 'full' | 'no-library' | 'no-rope';

export const HERA_VARIANTS: readonly HeraVariant[] = ['full', 'no-library', 'no-rope'];

export function variantId(variant: HeraVariant): string {
  return variant === 'full' ? 'hera' : `hera-${variant}`;
}

export function variantTitle(variant: HeraVariant): string {
  if (variant === 'no-library') return 'HERA w/o experience library (orchestrator without retrieved experience)';
  if (variant === 'no-rope') return 'HERA w/o prompt evolution (RoPE-evolved prompts not applied)';
  return 'HERA (experience-guided orchestration of an agent topology)';
}
