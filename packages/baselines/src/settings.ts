import { z } from 'zod';

/** Single-turn RAG: top-5 passages for the question. */
export const SINGLE_TURN_RAG_DEFAULTS = { k: 5 };
/** IRCoT: 5 passages per retrieval, at most 5 reasoning sentences. */
export const IRCOT_DEFAULTS = { k: 5, maxSteps: 5 };
/** ReAct: 3 passages per search, at most 6 thought/action steps. */
export const REACT_DEFAULTS = { k: 3, maxSteps: 6 };

const count = (fallback: number, description: string) => z.number().int().min(1).default(fallback).describe(description);

/**
 * Each baseline's numeric settings as a zod object (what `multihop --set` and `sweep` validate
 * against), each defaulting to the constant above. Direct inference and chain-of-thought have
 * none: their schema is empty, so the runner refuses a setting given for them.
 */
export const BASELINE_SETTINGS = {
  direct: z.object({}),
  cot: z.object({}),
  rag: z.object({ k: count(5, 'passages retrieved for the question') }),
  ircot: z.object({
    k: count(5, 'passages per retrieval'),
    maxSteps: count(5, 'reasoning sentences before the loop is cut'),
  }),
  react: z.object({
    k: count(3, 'passages per search'),
    maxSteps: count(6, 'thought/action steps before the loop is cut'),
  }),
} as const;
