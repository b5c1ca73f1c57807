import { z } from 'zod';
import type { OperaSettings, OperaVariant } from './machine';

/**
 * Defaults: top-5 sentence chunks (the paper), two rewrites per sub-goal, six steps, one plan
 * repair round, and the final answer as the paper forms it: the answer of the last executed
 * plan step (see docs/methods/opera.md, "Final answer", for the measurement behind this choice).
 */
export const OPERA_DEFAULTS: OperaSettings = { topK: 5, maxRewrites: 2, maxSteps: 6, planRepairs: 1, synthesis: 'last-step', onStepFailure: 'continue' };

/**
 * OPERA's numeric and enumerated settings as a zod object (what `multihop --set` and `sweep`
 * validate against), each with its default.
 */
export const operaSettingsSchema = z.object({
  topK: z.number().int().min(1).default(5).describe('sentence chunks retrieved per query (paper: top-5)'),
  maxRewrites: z.number().int().min(0).default(2).describe('rewrites allowed per sub-goal before its best guess is kept'),
  maxSteps: z.number().int().min(1).default(6).describe('sub-goals executed per question at most'),
  planRepairs: z.number().int().min(0).default(1).describe('repair rounds for a malformed plan before the single-step fallback'),
  synthesis: z
    .enum(['llm', 'last-step'])
    .default('last-step')
    .describe("the final answer: 'last-step' (the paper: the answer of the last executed sub-goal) or 'llm' (this project's synthesis call over the trajectory)"),
  onStepFailure: z
    .enum(['continue', 'stop'])
    .default('continue')
    .describe("a sub-goal still insufficient after its rewrites: 'continue' (keep its best guess, go on) or 'stop' (the authors' pipeline: end the run with no answer, partial / step-failed)"),
});

/** Each variant's settings: only those its machine uses (no plan states without the Plan Agent, no rewrites without the Rewrite Agent). */
export const OPERA_SETTINGS: Readonly<Record<OperaVariant, z.ZodObject>> = {
  full: operaSettingsSchema,
  'no-plan': operaSettingsSchema.omit({ planRepairs: true }),
  'no-rewrite': operaSettingsSchema.omit({ maxRewrites: true }),
};
