import type { LocalTrainer } from '@multihop/core';
import { z } from 'zod';
import type * as Evolve from './evolve';

// Loaded when training starts, not when the manifest is read.
const evolve = (): typeof Evolve => require('./evolve');

const splitAxes = (text: string): string[] => text.split(',').map((a) => a.trim()).filter(Boolean);
const AXES = ['efficiency', 'thoroughness', 'risk sensitivity', 'error correction', 'heuristic injection'] as const;
const int = (min: number, fallback: number, description: string) => z.number().int().min(min).default(fallback).describe(description);

/** What `multihop train hera-evolve` takes (`--epochs` = rounds, `--seed`, `--set hera-evolve.<key>=<value>`). */
export const heraEvolveSettingsSchema = z.object({
  epochs: int(1, 3, 'rounds over the training questions (a resumed run continues up to this many)'),
  seed: int(0, 1, 'seed of the visiting order and of the sampled topologies'),
  groupSize: int(2, 4, 'G: topologies per question (Algorithm 2)'),
  temperature: z.number().min(0).max(2).default(0.9).describe("sampling temperature of the orchestrator's topology call in samples 1…G−1 (the paper: 0.9); sample 0 keeps the role's configured temperature"),
  successF1: z.number().min(0).max(1).default(0.5).describe('a run succeeds at F1 ≥ this (mixed groups, utility, blame)'),
  axes: z
    .string()
    .default(AXES.join(','))
    // Checked with the other settings (so `--set hera-evolve.axes=...` is refused before anything runs, naming the axis).
    .superRefine((text, ctx) => {
      const unknown = splitAxes(text).find((a) => !(AXES as readonly string[]).includes(a));
      if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `unknown RoPE axis "${unknown}"; axes: ${AXES.join(', ')}` });
    })
    .describe(`RoPE variant axes, comma-separated, of: ${AXES.join(', ')}`),
  maxRules: int(1, 4, 'K: most rules and principles in an evolved prompt'),
  bufferSize: int(1, 5, 'failures kept per agent for RoPE'),
  mutationPatience: int(1, 2, 'greedy runs at F1 = 0 in a row on a query profile before topology mutation'),
  pruneUtility: z.number().default(0).describe('a conflicting library entry is pruned only at utility ≤ this'),
  maxLibrary: int(1, 100, 'most experience library entries'),
  rope: z.boolean().default(true).describe('role-aware prompt evolution on'),
  mutation: z.boolean().default(true).describe('topology mutation on'),
  topK: int(1, 5, 'passages per retrieval step in the runs'),
});

/**
 * HERA's learning loop as a local trainer (no weight updates: it writes an experience library and
 * evolved prompts). `--out` is the state directory `hera` loads with `--set hera.state=<dir>`; an
 * existing directory with a checkpoint of the same seed, questions and G is resumed.
 */
export const heraEvolveTrainer: LocalTrainer = {
  id: 'hera-evolve',
  description: 'HERA learning loop: group rollouts, reflection, experience library (ADD/MERGE/PRUNE/KEEP), RoPE prompt evolution, topology mutation; writes a state directory',
  settings: heraEvolveSettingsSchema,
  async train(options) {
    const s = heraEvolveSettingsSchema.parse(options.settings);
    const axes = splitAxes(s.axes);
    const { history, dir, library, prompts, diffs } = await evolve().evolveHera({
      model: options.model,
      modelId: options.modelId,
      dataset: options.dataset,
      retrieverFor: options.retrieverFor,
      questions: options.questions,
      out: options.out,
      settings: { rounds: s.epochs, seed: s.seed, groupSize: s.groupSize, temperature: s.temperature, successF1: s.successF1, axes: axes as Evolve.EvolveSettings['axes'], maxRules: s.maxRules, bufferSize: s.bufferSize, mutationPatience: s.mutationPatience, pruneUtility: s.pruneUtility, maxLibrary: s.maxLibrary, rope: s.rope, mutation: s.mutation },
      workflow: { topK: s.topK },
      ...(options.signal ? { signal: options.signal } : {}),
      onRound: (p) => {
        const { round, rounds, ...metrics } = p;
        options.onEpoch?.({ epoch: round, epochs: rounds, metrics });
      },
    });
    const last = history.at(-1);
    return { file: dir, metrics: { rounds: history.length, f1: last?.f1 ?? 0, library: library.length, evolvedPrompts: prompts.length, promptDiffs: diffs.length } };
  },
};
