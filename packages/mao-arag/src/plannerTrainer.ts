import type { LocalTrainer } from '@multihop/core';
import { z } from 'zod';
import { MAO_ARAG_DEFAULTS } from './settings';
import type * as Training from './trainPlanner';

// Loaded when training starts, not when the manifest is read.
const training = (): typeof Training => require('./trainPlanner');

const int = (min: number, fallback: number, description: string) => z.number().int().min(min).default(fallback).describe(description);

/** What `multihop train mao-arag-planner` takes (`--alpha`, `--epochs`, `--seed`, `--set mao-arag-planner.<key>=<value>`), each with its default. */
export const plannerTrainerSettingsSchema = z.object({
  alpha: z.number().min(0).default(MAO_ARAG_DEFAULTS.alpha).describe('α of R = F1 − α·CP − FP'),
  formatPenalty: z.number().min(0).default(MAO_ARAG_DEFAULTS.formatPenalty).describe('FP for an invalid plan'),
  epochs: int(1, 40, 'PPO epochs (a resumed run continues up to this many)'),
  seed: int(0, 1, 'seed of the sampling and the visiting order'),
  samplesPerQuestion: int(1, 4, 'episodes per question per epoch'),
  maxTurns: int(2, MAO_ARAG_DEFAULTS.maxTurns, 'planner turns per run'),
  maxSubQuestions: int(1, MAO_ARAG_DEFAULTS.maxSubQuestions, 'sub-questions a decomposition keeps'),
  retrievalK: int(1, MAO_ARAG_DEFAULTS.retrievalK, 'passages per retrieval'),
});

/**
 * MAO-ARAG's planner policy as a local trainer: PPO on rewards of real runs (trainPlanner). The
 * file it writes is what `mao-arag` loads with `--set mao-arag.policy=<file>`; an existing file
 * with a checkpoint of the same seed, α and questions is resumed.
 */
export const maoPlannerTrainer: LocalTrainer = {
  id: 'mao-arag-planner',
  description: 'MAO-ARAG planner policy over its 18 + 5 workflows, PPO on R = F1 − α·CP − FP of real runs',
  settings: plannerTrainerSettingsSchema,
  async train(options) {
    const s = plannerTrainerSettingsSchema.parse(options.settings);
    const { existsSync } = require('node:fs') as typeof import('node:fs');
    const { history, file } = await training().trainPlanner({
      model: options.model,
      modelId: options.modelId,
      retrieverFor: options.retrieverFor,
      questions: options.questions,
      alpha: s.alpha,
      formatPenalty: s.formatPenalty,
      epochs: s.epochs,
      seed: s.seed,
      samplesPerQuestion: s.samplesPerQuestion,
      settings: { maxTurns: s.maxTurns, maxSubQuestions: s.maxSubQuestions, retrievalK: s.retrievalK },
      out: options.out,
      ...(existsSync(options.out) ? { resumeFrom: options.out } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onEpoch: (p) => options.onEpoch?.({ epoch: p.epoch, epochs: p.epochs, metrics: { meanReward: p.meanReward, f1: p.f1, cost: p.cost, invalid: p.invalid, entropy: p.entropy } }),
    });
    const last = history.at(-1);
    const metrics: Record<string, number> = last ? { epochs: last.epoch, meanReward: last.meanReward, f1: last.f1, cost: last.cost } : { epochs: 0 };
    return { file, metrics };
  },
};
