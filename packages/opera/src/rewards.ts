import { findPlaceholders, validatePlan, type Plan, type RewardBreakdown } from '@multihop/core';
import { dedupeRanking, exactMatch, ndcgAtK, normalizeAnswer, type NormalizationName } from '@multihop/metrics';


function weighted(components: Record<string, number>, weights: Record<string, number>): RewardBreakdown {
  const total = Object.entries(weights).reduce((sum, [name, w]) => sum + w * (components[name] ?? 0), 0);
  return { total: round(total), components: Object.fromEntries(Object.entries(components).map(([k, v]) => [k, round(v)])), weights };
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

// ---------------------------------------------------------------------------------------------
// Plan Agent (MAPGRPO stage 1). The paper names f_logic, f_struct and f_exec; the summary in
// opera.md gives no weights, so these are this project's, every one configurable.

export interface PlanRewardWeights {
  /** Dependencies chain the sub-goals as the question's hops require. */
  logic: number;
  /** The plan is a well-formed DAG: non-empty questions, unique ids, known dependencies, no cycles. */
  structure: number;
  /** Share of sub-goals the executors resolved with status "yes". */
  execution: number;
  /** Exact match of the final answer the plan led to. */
  em: number;
  /** Step count close to the gold hop count. */
  efficiency: number;
  /** Share of placeholders that name an earlier step the sub-goal depends on. */
  placeholders: number;
}

export const PLAN_REWARD_WEIGHTS: PlanRewardWeights = { logic: 0.2, structure: 0.15, execution: 0.2, em: 0.25, efficiency: 0.1, placeholders: 0.1 };

export interface PlanRewardInput {
  plan: Plan;
  /** Gold hop count, where the dataset gives it (MuSiQue's decomposition length). */
  goldHops?: number;
  /** Status of each executed sub-goal (trajectory memory). */
  executed: ReadonlyArray<{ status: 'yes' | 'no' | 'skipped' }>;
  prediction: string;
  gold: readonly string[];
  maxSteps?: number;
  /** How EM compares answers: `squad` (default) or the metrics package's `opera-lenient`. */
  emNormalization?: NormalizationName;
}

export function planReward(input: PlanRewardInput, weights: PlanRewardWeights = PLAN_REWARD_WEIGHTS): RewardBreakdown {
  const steps = input.plan.steps;
  const n = steps.length;
  const problems = validatePlan(input.plan);
  const structural = problems.filter((p) => p.kind !== 'dangling-placeholder');
  const maxSteps = input.maxSteps ?? Infinity;
  const structure = n > 0 && n <= maxSteps && structural.length === 0 ? 1 : 0;

  const placeholderCount = steps.reduce((sum, s) => sum + findPlaceholders(s.question).length, 0);
  const bad = problems.filter((p) => p.kind === 'dangling-placeholder').length + problems.filter((p) => p.kind === 'self-reference').length;
  const placeholders = placeholderCount === 0 ? 1 : Math.max(0, 1 - bad / placeholderCount);

  // Logic: a multi-hop question needs a chain, so every step after the first should build on
  // an earlier answer; a single-hop question needs a single step.
  const chained = n <= 1 ? 0 : steps.slice(1).filter((s) => s.dependsOn.length > 0).length / (n - 1);
  const hops = input.goldHops;
  const logic = hops === undefined ? (n <= 1 ? 1 : chained) : hops <= 1 ? (n === 1 ? 1 : 0.5 * chained) : n <= 1 ? 0 : chained;

  const efficiency = n === 0 ? 0 : hops === undefined ? (n <= maxSteps ? 1 : 0) : 1 - Math.abs(n - hops) / Math.max(n, hops);
  const execution = n === 0 ? 0 : input.executed.filter((e) => e.status === 'yes').length / n;
  const em = input.gold.length ? exactMatch(input.prediction, input.gold, { normalization: input.emNormalization ?? 'squad' }) : 0;
  return weighted({ logic, structure, execution, em, efficiency, placeholders }, { ...weights });
}

// ---------------------------------------------------------------------------------------------
// Analysis-Answer Agent (MAPGRPO stage 2): 0.25 sufficiency judgment + 0.65 EM + 0.10 format
// when the gold status is "yes"; 0.9 judgment + 0.1 format when it is "no".

export interface AnalysisRewardWeights {
  judgment: number;
  em: number;
  format: number;
  /** When the gold status is "no": the judgment and format weights. */
  noJudgment: number;
  noFormat: number;
}

export const ANALYSIS_REWARD_WEIGHTS: AnalysisRewardWeights = { judgment: 0.25, em: 0.65, format: 0.1, noJudgment: 0.9, noFormat: 0.1 };

export interface AnalysisRewardInput {
  output: { status: string; answer: string; analysis: string } | undefined;
  /** "yes" when the retrieved chunks hold the gold evidence for the sub-goal. */
  goldStatus: 'yes' | 'no';
  /**
   * Gold answers of the sub-goal. For MuSiQue only the last sub-goal's are exposed (the
   * question's answer); for earlier ones pass `groundingText` instead.
   */
  goldAnswers?: readonly string[];
  /** Gold-passage text the answer must occur in when no gold answer is known (a proxy for EM). */
  groundingText?: string;
  /** Longest answer in words that still counts as a short answer (format). */
  maxAnswerWords?: number;
  /** How EM compares answers: `squad` (default) or the metrics package's `opera-lenient`. */
  emNormalization?: NormalizationName;
}

export function analysisFormat(output: AnalysisRewardInput['output'], maxAnswerWords = 12): number {
  if (!output) return 0;
  if (output.status !== 'yes' && output.status !== 'no') return 0;
  if (output.analysis.trim() === '') return 0;
  if (output.status === 'yes' && (output.answer.trim() === '' || output.answer.trim().split(/\s+/).length > maxAnswerWords)) return 0;
  return 1;
}

export function analysisReward(input: AnalysisRewardInput, weights: AnalysisRewardWeights = ANALYSIS_REWARD_WEIGHTS): RewardBreakdown {
  const format = analysisFormat(input.output, input.maxAnswerWords);
  const judgment = input.output?.status === input.goldStatus ? 1 : 0;
  if (input.goldStatus === 'no') return weighted({ judgment, format }, { judgment: weights.noJudgment, format: weights.noFormat });
  const answer = input.output?.status === 'yes' ? input.output.answer : '';
  const em = input.goldAnswers?.length
    ? exactMatch(answer, input.goldAnswers, { normalization: input.emNormalization ?? 'squad' })
    : answer && input.groundingText !== undefined && normalizeAnswer(input.groundingText).includes(normalizeAnswer(answer))
      ? 1
      : 0;
  return weighted({ judgment, em, format }, { judgment: weights.judgment, em: weights.em, format: weights.format });
}

// ---------------------------------------------------------------------------------------------
// Rewrite Agent (MAPGRPO stage 3): 0.9·√NDCG@k + 0.1 format. The square root rewards the first
// relevant hit strongly, which is what a failed retrieval most needs.

export interface RewriteRewardWeights {
  ndcg: number;
  format: number;
}

export const REWRITE_REWARD_WEIGHTS: RewriteRewardWeights = { ndcg: 0.9, format: 0.1 };
export const REWRITE_STRATEGIES = ['keyword-expansion', 'synonym', 'entity-focus', 'specification', 'simplification'] as const;

export interface RewriteRewardInput {
  output: { query: string; strategy: string; keywords: string[] } | undefined;
  /** The query that failed; a rewrite that repeats it is malformed. */
  failedQuery: string;
  /** Passage ids of what the rewritten query retrieved, best first (sentence hits map to their passage). */
  retrievedPassageIds: readonly string[];
  /** Gold passages of the sub-goal. */
  gold: readonly string[];
  k?: number;
}

export function rewriteFormat(output: RewriteRewardInput['output'], failedQuery: string): number {
  if (!output) return 0;
  const query = output.query.trim();
  if (!query || query.toLowerCase() === failedQuery.trim().toLowerCase()) return 0;
  if (!(REWRITE_STRATEGIES as readonly string[]).includes(output.strategy)) return 0;
  if (output.keywords.length === 0) return 0;
  const lower = query.toLowerCase();
  return output.keywords.every((k) => lower.includes(k.toLowerCase())) ? 1 : 0;
}

export function rewriteReward(input: RewriteRewardInput, weights: RewriteRewardWeights = REWRITE_REWARD_WEIGHTS): RewardBreakdown {
  const k = input.k ?? 5;
  const ndcg = input.gold.length && input.output ? ndcgAtK(dedupeRanking(input.retrievedPassageIds), input.gold, k) : 0;
  return weighted({ sqrtNdcg: Math.sqrt(ndcg), ndcg, format: rewriteFormat(input.output, input.failedQuery) }, { sqrtNdcg: weights.ndcg, format: weights.format });
}
