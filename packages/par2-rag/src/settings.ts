import { z } from 'zod';
import type { Par2Settings, Par2Variant } from './graph';

/**
 * The paper's settings (appendix A.4): m = 5 sub-queries, top-100 retrieval reranked to 5, hop
 * budget H = 5. The reranker is the lexical one by default (no model call; the paper's is a model:
 * `rerankWith: 'llm'`).
 */
export const PAR2_DEFAULTS: Par2Settings = { subQueries: 5, retrieveK: 100, rerankK: 5, hopBudget: 5, rerankWith: 'lexical' };

const count = (min: number, fallback: number, description: string) => z.number().int().min(min).default(fallback).describe(description);

/**
 * PAR²-RAG's numeric settings as a zod object (what `multihop --set` and `sweep` validate
 * against); each default is the paper's.
 */
export const par2SettingsSchema = z.object({
  subQueries: count(1, 5, 'm: sub-queries the planner emits (Stage 1)'),
  retrieveK: count(1, 100, 'candidates per retrieval before reranking'),
  rerankK: count(1, 5, 'passages kept per retrieval after reranking'),
  hopBudget: count(1, 5, 'H: hops of the iterative chain (Stage 2)'),
  rerankWith: z.enum(['lexical', 'llm']).default('lexical').describe('who reranks the candidates: lexical (no model call) or llm (the run\'s model, listwise, as appendix A.4)'),
});

/**
 * Each variant's settings: only those its graph uses (Coverage Anchor has no chain, so no
 * `hopBudget`; Iterative Chain has no planner, so no `subQueries`).
 */
export const PAR2_SETTINGS: Readonly<Record<Par2Variant, z.ZodObject>> = {
  full: par2SettingsSchema,
  'coverage-anchor': par2SettingsSchema.omit({ hopBudget: true }),
  'iterative-chain': par2SettingsSchema.omit({ subQueries: true }),
};
