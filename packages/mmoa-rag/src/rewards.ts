import type { RewardBreakdown } from '@multihop/core';
import { scoreAnswer, type GoldAnswers } from '@multihop/metrics';
import type { MmoaAgent } from './variants';

/**
 * Each agent's penalty (mmoa-rag.md, "Observation / Action / Reward Design per Agent"): the
 * Query Rewriter −0.5 for more than four sub-questions, the Selector −1 for a malformed reply
 * or a repeated ID, the Generator −0.5 for an over-long answer. The authors' trainer
 * (trainer_qr_s_g.py) gives the Generator −1.0 instead; the paper's −0.5 is the default here.
 */
export const MMOA_PENALTIES: Readonly<Record<MmoaAgent, number>> = {
  'query-rewriter': -0.5,
  selector: -1,
  generator: -0.5,
};

/** The thresholds the penalty checks use (the workflow's settings carry them; see settings.ts). */
export interface PenaltyLimits {
  /** More sub-questions than this is penalised (paper: 4). */
  maxSubQuestions: number;
  /** More characters over all sub-questions than this is penalised too (the authors' trainer: 300). */
  maxSubQuestionChars: number;
  /** More whitespace-separated words than this in the Generator's reply is penalised (the authors' trainer: 30). */
  maxAnswerWords: number;
}

/** Why the Query Rewriter is penalised, or undefined. */
export function rewriterViolation(subQuestions: readonly string[], limits: PenaltyLimits): 'too-many-sub-questions' | 'sub-questions-too-long' | undefined {
  if (subQuestions.length > limits.maxSubQuestions) return 'too-many-sub-questions';
  if (subQuestions.reduce((n, q) => n + q.length, 0) > limits.maxSubQuestionChars) return 'sub-questions-too-long';
  return undefined;
}

/** The Selector's whole reply must be `Document<i>` items joined by commas (the paper's vocabulary: "Document", digits, ","), each ID written as listed (no leading zero). */
export const SELECTOR_REPLY_PATTERN = /^(?:Document(?:0|[1-9]\d*),)*Document(?:0|[1-9]\d*)$/;

/**
 * A GBNF grammar (llama.cpp's `grammar`, vLLM's `structured_outputs.grammar`) that admits exactly the replies
 * SELECTOR_REPLY_PATTERN admits with IDs below `candidates`: what a provider with constrained
 * decoding would be given in place of the after-the-fact check. It cannot stop a repeated ID.
 */
export function selectorGrammar(candidates: number): string {
  const ids = Array.from({ length: Math.max(1, candidates) }, (_, i) => `"${i}"`).join(' | ');
  return [`root ::= item ("," item)*`, `item ::= "Document" id`, `id ::= ${ids}`].join('\n');
}

export interface SelectorReading {
  /** IDs in reply order, each once, in range: what the Generator receives (the authors' extract_digits). */
  selected: number[];
  /** The reply breaks the vocabulary: not Document<i>[,Document<j>…], or an ID outside 0…K−1. */
  malformed: boolean;
  /** An ID appears twice. */
  repeated: boolean;
}

/**
 * Reads the Selector's reply as the authors do: an empty reply selects nothing and is not
 * penalised (get_selector_duplicate_reward returns 0 for it); otherwise the reply must match the
 * pattern, every ID must be a candidate's, and no ID may repeat. What is selected is read
 * leniently either way (comma-separated items with "Document" removed that name a candidate).
 */
export function readSelection(reply: string, candidates: number): SelectorReading {
  const text = reply.trim();
  if (text === '') return { selected: [], malformed: false, repeated: false };
  const items = text.split(',').map((item) => item.trim().replace(/^Document/, ''));
  // An ID is written as the prompt lists it (Document3, not Document03): a padded one is outside the
  // vocabulary, as the authors' digit-by-digit check has it, so it cannot hide a repeat.
  const inRange = (item: string) => /^(?:0|[1-9]\d*)$/.test(item) && Number(item) < candidates;
  const selected: number[] = [];
  for (const item of items) if (inRange(item) && !selected.includes(Number(item))) selected.push(Number(item));
  const malformed = !SELECTOR_REPLY_PATTERN.test(text) || !items.every(inRange);
  const repeated = new Set(items).size !== items.length;
  return { selected, malformed, repeated };
}

/** Words in the Generator's reply, split on whitespace as the authors' get_generator_punish does. */
export function answerWords(reply: string): number {
  return reply.split(/\s+/).filter(Boolean).length;
}

/** The shared return R_shared: the answer's F1 under the mmoa normalisation (@multihop/metrics). */
export function sharedF1(reply: string, gold: GoldAnswers): number {
  return scoreAnswer(reply, gold, { normalization: 'mmoa' }).f1;
}

/** R_i = R_shared + P_i (the KL term to the SFT policy is the trainer's, per token). */
export function agentReward(shared: number, penalty: number): RewardBreakdown {
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { total: round(shared + penalty), components: { shared_f1: round(shared), penalty }, weights: { shared_f1: 1, penalty: 1 } };
}
