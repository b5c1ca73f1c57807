import { z } from 'zod';
import { SUB_LEVEL_WORKFLOWS, workflowKey } from './workflowSpace';
import type { MaoVariant } from './variants';

/**
 * The paper's settings (mao-arag.md §3.2, §4; the authors' code for what the paper leaves out):
 * α = 0.1 in R = F1 − α·CP − FP, FP = 1 for an invalid plan, at most 5 planner turns and 4
 * sub-questions, 5 passages per retrieval. `costScaleTokens` is CP's token normaliser when an
 * evaluation scores R: 3,820, the mean over the 200 hotpotqa-train and musique-train questions of
 * the most tokens any of the costliest workflows spends (measureCostScale, offline model); set it
 * to the figure the policy file records (`training.costScale.tokens`) for another model.
 */
export const MAO_ARAG_DEFAULTS = { alpha: 0.1, formatPenalty: 1, maxTurns: 5, maxSubQuestions: 4, retrievalK: 5, costScaleTokens: 3820 };

const int = (min: number, fallback: number, description: string) => z.number().int().min(min).default(fallback).describe(description);

/** What every MAO-ARAG workflow shares: the reward's weights (reported in the run's data) and the bounds. */
export const maoAragBaseSettingsSchema = z.object({
  alpha: z.number().min(0).default(MAO_ARAG_DEFAULTS.alpha).describe('α: weight of the cost penalty CP in R = F1 − α·CP − FP'),
  formatPenalty: z.number().min(0).default(MAO_ARAG_DEFAULTS.formatPenalty).describe('FP charged for an invalid plan (the authors: 1)'),
  maxTurns: int(2, MAO_ARAG_DEFAULTS.maxTurns, 'planner turns in a run; a serial decomposition stops there and AS answers'),
  maxSubQuestions: int(1, MAO_ARAG_DEFAULTS.maxSubQuestions, 'sub-questions a decomposition keeps'),
  retrievalK: int(1, MAO_ARAG_DEFAULTS.retrievalK, 'passages per retrieval (R)'),
  costScaleTokens: int(1, MAO_ARAG_DEFAULTS.costScaleTokens, 'CP\'s token normaliser when an evaluation scores R: the tokens of the costliest valid workflow'),
});

/** `mao-arag`: the planner; the learned policy when `policy` names a policy file, else the prompted planner. */
export const maoAragSettingsSchema = maoAragBaseSettingsSchema.extend({
  policy: z.string().default('').describe('path of a planner policy file written by trainPlanner ("" = the prompted planner)'),
});

const SUB_KEYS = SUB_LEVEL_WORKFLOWS.map(workflowKey) as [string, ...string[]];

/** `mao-arag-fixed:QDS` and `mao-arag-fixed:QDP`: the sub-questions' fixed workflow as well. */
export const maoAragFixedDecompositionSettingsSchema = maoAragBaseSettingsSchema.extend({
  subWorkflow: z.enum(SUB_KEYS).default('R+AG').describe('the workflow every sub-question runs'),
});

/** The settings schema of a MAO-ARAG workflow (the manifest lists it; the factory checks its options against it). */
export function maoAragSettingsSchemaFor(variant: MaoVariant): z.ZodObject {
  if (variant.kind === 'planner') return maoAragSettingsSchema;
  const decomposes = variant.kind === 'fixed' && (variant.workflow[0] === 'QDS' || variant.workflow[0] === 'QDP');
  return decomposes ? maoAragFixedDecompositionSettingsSchema : maoAragBaseSettingsSchema;
}
