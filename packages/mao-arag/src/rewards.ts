import { goldAnswers, totalTokens, type ModelPort, type Question, type RetrieverPort, type RewardBreakdown, type RunResult } from '@multihop/core';
import { f1Score } from '@multihop/metrics';
import type { Workflow } from './workflowSpace';

/** What a run spent, in the three currencies of the paper's cost penalty CP (§3.2, eq. 4). */
export interface RunCost {
  /**
   * Prompt plus completion tokens of the executors' model calls (estimated when the provider gives
   * none). The planner's own calls are not charged: in the authors' code only the executors, API
   * agents, record a token cost; the planner is the policy being trained, and a planner that costs
   * tokens (the prompted one) would otherwise pay for planning where a learned or fixed one does not.
   */
  tokens: number;
  /** Planner turns (the latency proxy: a parallel decomposition's sub-questions share one turn). */
  turns: number;
  /** Retrieval calls. */
  retrievals: number;
}

/**
 * What the costliest valid workflow spends: CP's normalisers. Turns and retrievals are bounds of
 * the workflow space (a serial decomposition uses every turn, one retrieval per sub-question);
 * tokens depend on the questions and the model, so they are measured (measureCostScale).
 */
export type CostScale = RunCost;

/** The planner's role: its calls are the policy's, not an executor's, and CP does not charge them. */
export const PLANNER_ROLE = 'mao-arag-planner';

export function runCost(result: Pick<RunResult, 'usage' | 'data'>): RunCost {
  const turns = Number((result.data?.['turns'] as number | undefined) ?? 0);
  const planner = result.usage.byRole[PLANNER_ROLE];
  const tokens = totalTokens(result.usage) - (planner ? totalTokens(planner) : 0);
  return { tokens, turns, retrievals: result.usage.retrievalCalls };
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** CP: each currency over the costliest valid workflow's, clipped to [0, 1], summed with equal weights (so CP ∈ [0, 3]). */
export function costPenalty(cost: RunCost, scale: CostScale): { tokens: number; turns: number; retrievals: number; total: number } {
  const part = (x: number, s: number) => (s > 0 ? Math.min(1, Math.max(0, x / s)) : 0);
  const tokens = part(cost.tokens, scale.tokens);
  const turns = part(cost.turns, scale.turns);
  const retrievals = part(cost.retrievals, scale.retrievals);
  return { tokens: round(tokens), turns: round(turns), retrievals: round(retrievals), total: round(tokens + turns + retrievals) };
}

export interface MaoRewardInput {
  prediction: string;
  gold: readonly string[];
  cost: RunCost;
  scale: CostScale;
  /** α (paper default 0.1). */
  alpha: number;
  /** FP as charged: the format penalty when a plan was invalid, else 0. */
  formatPenalty: number;
}

/** R = F1 − α·CP − FP (mao-arag.md §3.2, eq. 6), with its components and weights. */
export function maoReward(input: MaoRewardInput): RewardBreakdown {
  const f1 = input.gold.length > 0 ? f1Score(input.prediction, [...input.gold]).f1 : 0;
  const cp = costPenalty(input.cost, input.scale);
  const total = f1 - input.alpha * cp.total - input.formatPenalty;
  return {
    total: round(total),
    components: { f1: round(f1), cost: cp.total, format_penalty: round(input.formatPenalty), token_cost: cp.tokens, turn_cost: cp.turns, retrieval_cost: cp.retrievals },
    weights: { f1: 1, cost: -input.alpha, format_penalty: -1 },
  };
}

/** The reward of a finished run against a question's gold (the run's data carries α and FP as charged). */
export function rewardOfRun(result: RunResult, question: Pick<Question, 'answer' | 'aliases'>, scale: CostScale, alpha?: number): RewardBreakdown {
  const reward = (result.data?.['reward'] as { alpha?: number; formatPenalty?: number } | undefined) ?? {};
  return maoReward({
    prediction: result.answer,
    gold: goldAnswers(question),
    cost: runCost(result),
    scale,
    alpha: alpha ?? reward.alpha ?? 0.1,
    formatPenalty: reward.formatPenalty ?? 0,
  });
}

/**
 * The method's own measures of a finished run, for `multihop eval` (the manifest's `score`): R,
 * its F1, CP and FP parts, and the turns, with α and CP's normalisers as the run reports them
 * (its settings: α, `costScaleTokens`, `maxTurns`, `maxSubQuestions`), so every MAO-ARAG
 * workflow of one evaluation is scored on the same scale.
 */
export function evaluationScore(result: RunResult, question: Pick<Question, 'answer' | 'aliases'>): Record<string, number> {
  const reported = (result.data?.['reward'] as { costScale?: CostScale } | undefined)?.costScale;
  const scale: CostScale = reported ?? { tokens: 1, turns: 1, retrievals: 1 };
  const reward = rewardOfRun(result, question, scale);
  return {
    R: reward.total,
    F1: reward.components['f1'] ?? 0,
    CP: reward.components['cost'] ?? 0,
    FP: reward.components['format_penalty'] ?? 0,
    turns: runCost(result).turns,
  };
}

/** The workflows whose cost bounds the others': both decompositions with the fullest sub-workflow, and the fullest pipeline (which has no sub-questions). */
export const COSTLIEST_WORKFLOWS: ReadonlyArray<{ workflow: Workflow; subWorkflow?: string }> = [
  { workflow: ['QDS'], subWorkflow: 'R+DS+AG' },
  { workflow: ['QDP'], subWorkflow: 'R+DS+AG' },
  { workflow: ['QR', 'R', 'DS', 'AG'] },
];

/**
 * CP's normalisers for a set of questions: turns = maxTurns and retrievals = maxSubQuestions
 * (the bounds every valid workflow stays within), tokens = the mean over the questions of the
 * most tokens any of COSTLIEST_WORKFLOWS spends on the question, measured with `model`.
 */
export async function measureCostScale(options: {
  model: ModelPort;
  retrieverFor: (question: Question) => RetrieverPort;
  questions: readonly Question[];
  settings: { maxTurns: number; maxSubQuestions: number; retrievalK: number };
}): Promise<CostScale> {
  // Loaded here, not at the top: rewards.ts stays free of the engine for callers that only score.
  const { createMaoAragWorkflow } = require('./workflows') as typeof import('./workflows');
  const { maxTurns, maxSubQuestions, retrievalK } = options.settings;
  let total = 0;
  for (const question of options.questions) {
    let most = 0;
    for (const costly of COSTLIEST_WORKFLOWS) {
      const workflow = createMaoAragWorkflow({ kind: 'fixed', workflow: costly.workflow }, { maxTurns, maxSubQuestions, retrievalK, ...(costly.subWorkflow ? { subWorkflow: costly.subWorkflow } : {}) });
      const result = await workflow.run(question, { model: options.model, retriever: options.retrieverFor(question) });
      most = Math.max(most, runCost(result).tokens);
    }
    total += most;
  }
  return { tokens: Math.max(1, Math.round(total / Math.max(1, options.questions.length))), turns: options.settings.maxTurns, retrievals: options.settings.maxSubQuestions };
}
