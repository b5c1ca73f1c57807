import { existsSync } from 'node:fs';
import { Matrix } from 'ml-matrix';
import { MultihopError, withDefaults, type ModelPort, type Question, type RetrieverPort } from '@multihop/core';
import type { MaoAragSettings } from './graph';
import { createPolicy, loadPolicy, policyDecision, policyPlanner, savePolicy, type PlannerPolicy, type PolicyDecision } from './policy/PlannerPolicy';
import { questionFeatures } from './policy/features';
import { meanEntropy, ppoUpdate, PPO_DEFAULTS, type PpoHyperparameters, type PpoSample } from './policy/ppo';
import { SeededRandom } from './policy/random';
import { measureCostScale, rewardOfRun, type CostScale } from './rewards';
import { MAO_ARAG_DEFAULTS } from './settings';
import { createMaoAragWorkflow } from './workflows';
import type { WorkflowPlanner } from './agents/Planner';

export interface EpochProgress {
  epoch: number;
  epochs: number;
  /** Mean R = F1 − α·CP − FP over the epoch's episodes. */
  meanReward: number;
  f1: number;
  /** Mean CP (each currency normalised, summed: [0, 3]). */
  cost: number;
  /** Share of plans the gate rejected (0 for the policy, which only names valid workflows). */
  invalid: number;
  /** Mean entropy of the top-level policy on the training questions after the update. */
  entropy: number;
  /** The top-level workflows chosen this epoch, with counts. */
  chosen: Record<string, number>;
}

export interface TrainPlannerOptions {
  /** The model every executor (and nothing else) calls: the offline model by default in the CLI, any model port otherwise. */
  model: ModelPort;
  /** Recorded in the policy file (`offline`, `openai:gpt-4o-mini`). */
  modelId?: string;
  retrieverFor(question: Question): RetrieverPort;
  /** Training questions, with gold (rewards need it). Train splits only. */
  questions: readonly Question[];
  alpha?: number;
  formatPenalty?: number;
  /** Total epochs (a resumed run continues up to this many). */
  epochs: number;
  seed: number;
  /** The policy file to write after every epoch. */
  out: string;
  onEpoch?(progress: EpochProgress): void;
  /** A policy file with a checkpoint to continue from (its seed, α and data must match). */
  resumeFrom?: string;
  settings?: Partial<MaoAragSettings>;
  hyperparameters?: Partial<PpoHyperparameters>;
  /** Episodes per question per epoch (default 4): more samples of the same question, less variance per update. */
  samplesPerQuestion?: number;
  /**
   * Reuse the result of a run whose whole plan (question and top-level workflow, no sub-question
   * turns) ran before. Sound only for a deterministic model and retriever; default: on for the
   * offline model, off for any other.
   */
  reuseRuns?: boolean;
  signal?: AbortSignal;
}

export interface TrainPlannerResult {
  file: string;
  policy: PlannerPolicy;
  history: EpochProgress[];
}

/**
 * Trains MAO-ARAG's planner policy with PPO (mao-arag.md §3.2) on rewards of real runs: each
 * epoch visits every training question `samplesPerQuestion` times in a seeded order, samples a
 * workflow from the policy (and one per sub-question after a decomposition), runs it with the
 * given model and retriever, scores R = F1 − α·CP − FP against the gold, then takes PPO steps on
 * each head (the top-level and the sub-question policy).
 * The policy file is rewritten after every epoch with the weights and the checkpoint (epoch,
 * random state, history), so a stopped run resumes where it was.
 */
export async function trainPlanner(options: TrainPlannerOptions): Promise<TrainPlannerResult> {
  if (options.questions.length === 0) throw new MultihopError('MAO_TRAIN', 'trainPlanner needs at least one training question');
  const alpha = options.alpha ?? MAO_ARAG_DEFAULTS.alpha;
  const formatPenalty = options.formatPenalty ?? MAO_ARAG_DEFAULTS.formatPenalty;
  const settings: MaoAragSettings = withDefaults(
    { maxTurns: MAO_ARAG_DEFAULTS.maxTurns, maxSubQuestions: MAO_ARAG_DEFAULTS.maxSubQuestions, retrievalK: MAO_ARAG_DEFAULTS.retrievalK },
    options.settings,
  );
  const hyper: PpoHyperparameters = withDefaults(PPO_DEFAULTS, options.hyperparameters);
  const questionIds = options.questions.map((q) => q.id);
  const datasets = [...new Set(options.questions.map((q) => q.dataset ?? String(q.metadata?.['dataset'] ?? 'unknown')))];

  let policy: PlannerPolicy;
  let scale: CostScale;
  let rng: SeededRandom;
  let history: EpochProgress[] = [];
  if (options.resumeFrom && existsSync(options.resumeFrom)) {
    policy = loadPolicy(options.resumeFrom);
    const t = policy.training;
    if (!t) throw new MultihopError('MAO_TRAIN', `${options.resumeFrom} holds no training checkpoint`);
    const mismatch = [
      t.seed !== options.seed ? `seed ${t.seed} ≠ ${options.seed}` : '',
      t.alpha !== alpha ? `α ${t.alpha} ≠ ${alpha}` : '',
      t.data.questionIds.join('|') !== questionIds.join('|') ? 'other training questions' : '',
    ].filter(Boolean);
    if (mismatch.length > 0) throw new MultihopError('MAO_TRAIN', `cannot resume ${options.resumeFrom}: ${mismatch.join(', ')}`);
    scale = t.costScale;
    rng = new SeededRandom(t.rngState);
    history = t.history.map((h) => ({ ...h, epochs: options.epochs, chosen: {} }));
  } else {
    policy = createPolicy();
    scale = await measureCostScale({ model: options.model, retrieverFor: options.retrieverFor, questions: options.questions, settings });
    rng = new SeededRandom(options.seed);
  }
  const samples = Math.max(1, options.samplesPerQuestion ?? 4);
  const reuse = options.reuseRuns ?? options.model.modelFor('mao-arag-ag') === 'offline';
  const record = (epochsDone: number) => {
    policy.training = {
      model: options.modelId ?? options.model.modelFor('mao-arag-ag'),
      data: { datasets, questionIds },
      alpha,
      formatPenalty,
      seed: options.seed,
      epochs: options.epochs,
      epochsDone,
      costScale: scale,
      hyperparameters: { ...hyper, samplesPerQuestion: samples },
      history: history.map(({ epoch, meanReward, f1, cost, invalid, entropy }) => ({ epoch, meanReward, f1, cost, invalid, entropy })),
      rngState: rng.state,
      settings: { ...settings },
    };
  };

  const reused = new Map<string, { total: number; f1: number; cost: number; invalid: number; plans: number; top: string }>();
  const topFeatures = () => new Matrix(options.questions.map((q) => questionFeatures(q.text, 'top')));
  for (let epoch = history.length + 1; epoch <= options.epochs; epoch++) {
    if (options.signal?.aborted) break;
    const batches: Record<'top' | 'sub', PpoSample[]> = { top: [], sub: [] };
    let reward = 0;
    let f1 = 0;
    let cost = 0;
    let invalid = 0;
    let plans = 0;
    const chosen: Record<string, number> = {};
    const episodes = rng.shuffle(options.questions.flatMap((q) => Array.from({ length: samples }, () => q)));
    for (const question of episodes) {
      // The top-level decision is taken before the run, so a one-turn plan that ran before can be reused.
      const top = policyDecision(policy, question.text, 'top', () => rng.next());
      const decisions: PolicyDecision[] = [top.decision];
      const key = `${question.id}\u0000${top.decision.action}`;
      let outcome = reuse ? reused.get(key) : undefined;
      if (!outcome) {
        const subPlanner = policyPlanner(policy, { sample: () => rng.next(), record: (d) => decisions.push(d) });
        const planner: WorkflowPlanner = { source: 'policy', plan: async (request, ctx) => (request.level === 'top' ? top.reply : subPlanner.plan(request, ctx)) };
        const workflow = createMaoAragWorkflow({ kind: 'planner' }, { ...settings, alpha, formatPenalty, planner });
        const result = await workflow.run(question, { model: options.model, retriever: options.retrieverFor(question), ...(options.signal ? { signal: options.signal } : {}) });
        if (result.status === 'error') throw new MultihopError('MAO_TRAIN', `training run of ${question.id} failed: ${result.error?.message ?? 'unknown error'}`);
        const r = rewardOfRun(result, question, scale, alpha);
        const ran = (result.data?.['workflows'] as Array<{ valid: boolean; level: string; executed: string }> | undefined) ?? [];
        outcome = { total: r.total, f1: r.components['f1'] ?? 0, cost: r.components['cost'] ?? 0, invalid: ran.filter((d) => !d.valid).length, plans: ran.length, top: ran.find((d) => d.level === 'top')?.executed ?? '' };
        // Only a run with no sub-question turn is fixed by its top-level decision alone.
        if (reuse && ran.length === 1) reused.set(key, outcome);
      }
      reward += outcome.total;
      f1 += outcome.f1;
      cost += outcome.cost;
      invalid += outcome.invalid;
      plans += outcome.plans;
      chosen[outcome.top] = (chosen[outcome.top] ?? 0) + 1;
      // Every decision of the episode shares its return (the authors credit each turn from the plan to the answer).
      for (const d of decisions) batches[d.level].push({ features: d.features, action: d.action, logProbability: d.logProbability, reward: outcome.total });
    }
    ppoUpdate(policy.heads.top, batches.top, hyper);
    ppoUpdate(policy.heads.sub, batches.sub, hyper);
    const n = episodes.length;
    const progress: EpochProgress = {
      epoch,
      epochs: options.epochs,
      meanReward: round(reward / n),
      f1: round(f1 / n),
      cost: round(cost / n),
      invalid: plans > 0 ? round(invalid / plans) : 0,
      entropy: round(meanEntropy(policy.heads.top, topFeatures())),
      chosen,
    };
    history.push(progress);
    record(epoch);
    savePolicy(options.out, policy);
    options.onEpoch?.(progress);
  }
  if (!policy.training) {
    record(history.length);
    savePolicy(options.out, policy);
  }
  return { file: options.out, policy, history };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;


