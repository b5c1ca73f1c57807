import { TOP_LEVEL_WORKFLOWS, workflowKey, type Workflow } from './workflowSpace';

export const MAO_ARAG_PAPER = 'MAO-ARAG: Multi-Agent Orchestration for Adaptive Retrieval-Augmented Generation (arXiv 2508.01005; mao-arag.md)';

/** Which planner writes the workflows: the method's (policy or prompt), the untrained prompt, or a fixed workflow. */
export type MaoVariant = { kind: 'planner' } | { kind: 'no-train' } | { kind: 'fixed'; workflow: Workflow };

export const MAO_ARAG_ID = 'mao-arag';
export const MAO_ARAG_NO_TRAIN_ID = 'mao-arag-no-train';
export const fixedWorkflowId = (workflow: Workflow): string => `mao-arag-fixed:${workflowKey(workflow)}`;

export function variantId(variant: MaoVariant): string {
  return variant.kind === 'planner' ? MAO_ARAG_ID : variant.kind === 'no-train' ? MAO_ARAG_NO_TRAIN_ID : fixedWorkflowId(variant.workflow);
}

export function variantTitle(variant: MaoVariant): string {
  if (variant.kind === 'planner') return 'MAO-ARAG (planner: learned policy when one is set, else the prompted planner)';
  if (variant.kind === 'no-train') return 'MAO-ARAG w/o training (the prompted planner)';
  return `MAO-ARAG fixed workflow ${workflowKey(variant.workflow)}`;
}

/** Every fixed top-level workflow as a variant, in TOP_LEVEL_WORKFLOWS order. */
export const FIXED_VARIANTS: readonly MaoVariant[] = TOP_LEVEL_WORKFLOWS.map((workflow) => ({ kind: 'fixed', workflow }));
