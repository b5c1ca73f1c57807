import { z } from 'zod';
import type { MmoaVariant } from './variants';

export interface MmoaRagSettings {
  /** K: candidates the Selector sees (Document0…DocumentK−1), shared among the sub-questions. */
  candidates: number;
  /** Passages retrieved per sub-question before the pool is filled. */
  topK: number;
  /** The Query Rewriter's limit; more sub-questions are penalised and only the first ones are searched. */
  maxSubQuestions: number;
  /** The Query Rewriter's second limit in the authors' trainer: characters over all sub-questions. */
  maxSubQuestionChars: number;
  /** The Generator's length limit, in words. */
  maxAnswerWords: number;
}

/**
 * The paper's settings as the authors' code fixes them (trainer_qr_s_g.py, evaluate_qr_s_g.py):
 * 10 candidates, the top 10 retrieved per sub-question, at most 4 sub-questions searched,
 * 300 characters over the sub-questions, 30 words per answer. See docs/methods/mmoa-rag.md.
 */
export const MMOA_RAG_DEFAULTS: MmoaRagSettings = { candidates: 10, topK: 10, maxSubQuestions: 4, maxSubQuestionChars: 300, maxAnswerWords: 30 };

export const mmoaRagSettingsSchema = z.object({
  candidates: z.number().int().min(1).max(50).default(10).describe('K, candidates the Selector sees (Document0…DocumentK−1), split among the sub-questions (authors: 10)'),
  topK: z.number().int().min(1).default(10).describe('passages retrieved per sub-question (authors: 10)'),
  maxSubQuestions: z.number().int().min(1).default(4).describe('Query Rewriter limit: more sub-questions get its penalty (−0.5) and only the first are searched (paper: 4)'),
  maxSubQuestionChars: z.number().int().min(1).default(300).describe('Query Rewriter limit on the characters of all sub-questions together (authors’ trainer: 300)'),
  maxAnswerWords: z.number().int().min(1).default(30).describe('Generator limit: a longer reply gets its penalty (−0.5) (authors’ trainer: 30 words)'),
});

/** Each variant's settings: only those its agents use. */
export const MMOA_SETTINGS: Readonly<Record<MmoaVariant, z.ZodObject>> = {
  full: mmoaRagSettingsSchema,
  'no-rewriter': mmoaRagSettingsSchema.omit({ maxSubQuestions: true, maxSubQuestionChars: true }),
  'no-selector': mmoaRagSettingsSchema,
};
