import { z } from 'zod';

// The grids the training searches live here, beside the schema that describes them: the manifest
// loads this file, and it loads none of the training's dependencies (compromise, ml-matrix).

/** The λ values cross-validation tries (quality per 1,000 tokens). */
export const LAMBDA_GRID = [0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];

/** The L2 penalties cross-validation tries: with a few hundred questions and dozens of candidates, strong shrinkage wins. */
export const L2_GRID = [3, 30, 300, 3000];

/** The router workflow's settings and their defaults. */
export const ROUTER_DEFAULTS = { file: '', lambda: -1, candidates: '', pool: '' };

/**
 * What `multihop --set router.<key>=<value>` and the config file's `settings.router` take.
 * `parse({})` equals ROUTER_DEFAULTS (src/settings.test.ts checks it).
 */
export const routerSettingsSchema = z.object({
  file: z.string().default('').describe('router file written by multihop train router (empty: the file this package ships, trained on the offline model’s evals)'),
  lambda: z.number().refine((v) => v === -1 || v >= 0, 'expected λ ≥ 0, or −1 for the λ in the router file').default(-1).describe('λ, quality per 1,000 tokens the router trades away (−1: the λ recorded in the router file)'),
  candidates: z.string().default('').describe('comma-separated workflow ids the router may choose (empty: every candidate in the router file)'),
  pool: z.enum(['', 'all', 'front']).default('').describe('route among all the candidates, or only those on the Pareto front of their training means (empty: as the router file says, or all of them when router.candidates names them)'),
});

/** What `multihop train router` takes (`--lambda`, `--seed`, `--set router.<key>=<value>`), each with its default. */
export const routerTrainerSettingsSchema = z.object({
  lambda: z.number().min(0).optional().describe('λ, quality per 1,000 tokens (default: chosen by cross-validation on the training questions)'),
  seed: z.number().int().min(0).default(1).describe('seed of the cross-validation folds'),
  folds: z.number().int().min(2).default(5).describe('cross-validation folds for choosing λ'),
  repeats: z.number().int().min(1).max(50).default(5).describe('times the folds are drawn (seeds seed, seed+1, ...: step --seed by this to compare seeds); each question’s cross-validated routing is averaged over the draws'),
  l2: z.number().positive().optional().describe(`L2 penalty of the quality and cost regressions on standardised features (default: chosen by cross-validation from ${L2_GRID.join(', ')})`),
  candidates: z.string().default('').describe('comma-separated candidate ids (default: every workflow that ran in all the evals given)'),
  pool: z.enum(['auto', 'all', 'front']).default('auto').describe('candidates routed among: all, those on the Pareto front of their training means, or auto (cross-validation chooses, as it chooses λ)'),
  embedding: z.number().int().min(0).max(64).default(0).describe('principal components of the question’s embedding added to the wording features (0: wording only)'),
  embedder: z.string().default('hashing').describe('the embedder for router.embedding: hashing[:<dimensions>] (offline, lexical) or openai:<model>:<dimensions> (OPENAI_BASE_URL, OPENAI_API_KEY)'),
});
