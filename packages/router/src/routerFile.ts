import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MultihopError, readJsonFile, writeFileWhole, type EvalSource } from '@multihop/core';
import { componentNames, type EmbeddingProjection } from './embedding';
import { FEATURE_NAMES, FEATURE_SPEC_VERSION } from './features';
import type { CandidateModel, Scaler } from './predictor';

export const ROUTER_FORMAT = 'multihop-router';

/** One row of the λ study: what cross-validated routing did at that λ. */
export interface LambdaRow {
  lambda: number;
  /** The candidates routed among: every one, or the Pareto front of the fit's training means; absent in files written before: every one. */
  pool?: RouterPool;
  /** The L2 penalty of the fits this row's routing used. */
  l2: number;
  /** Mean realised quality of the candidates chosen on held-out folds (over every draw of the folds). */
  quality: number;
  /** Mean realised tokens per question of those candidates. */
  tokens: number;
  /** The same routing on each training dataset, against that dataset's best single workflow. */
  datasets: DatasetRow[];
}

/** Cross-validated routing on one training dataset beside that dataset's best single workflow. */
export interface DatasetRow {
  dataset: string;
  quality: number;
  tokens: number;
  best: string;
  bestQuality: number;
  bestTokens: number;
  /** quality ≥ bestQuality at tokens ≤ bestTokens. */
  met: boolean;
}

/** Everything a router file records beside the predictors: data, model, λ, seed. */
export interface RouterTraining {
  /** The model whose runs were evaluated (the router predicts this model's quality and cost). */
  model: string;
  /** `correctness` (the judge's verdicts) or `f1` (when some outcome had no verdict). */
  target: 'correctness' | 'f1';
  /** The evals learned from: dataset, setting, offset, question count and the question ids used, and (where the eval recorded them) the candidates' settings and its budget. */
  data: Array<Omit<EvalSource, 'workflows'>>;
  /** Questions used (those every candidate ran without an infrastructure error). */
  questions: number;
  seed: number;
  folds: number;
  /** Times the folds were drawn (seeds seed, seed+1, ...), the routed outcomes averaged over the draws; absent in files written before: one draw. */
  repeats?: number;
  l2: number;
  /** How λ was chosen and the cross-validated study it was chosen from. */
  lambda: { value: number; chosenBy: 'given' | 'cross-validation'; rule: string; grid: LambdaRow[] };
  /** The best single workflow on the training questions: the bar the router is chosen to meet. */
  bestSingle: { workflow: string; quality: number; tokens: number; crossValidated: LambdaRow };
  /** The oracle on the training questions (the best candidate per question in hindsight). */
  oracle: { quality: number; tokens: number };
  created: string;
}

/** Which candidates a router routes among: every one, or those on the Pareto front of their training means. */
export type RouterPool = 'all' | 'front';

/** A trained router as its JSON file holds it. */
export interface RouterFile {
  format: typeof ROUTER_FORMAT;
  version: 1;
  featureSpec: { version: number; names: string[] };
  /**
   * When the features include the question's embedding: its principal components after the
   * wording features (`multihop train router --set router.embedding=K`). Absent: wording only.
   */
  embedding?: EmbeddingProjection;
  /** λ in quality per 1,000 tokens: the router picks argmax quality − λ·tokens/1000. */
  lambda: number;
  /**
   * Which candidates it routes among: `front`, those on the Pareto front of the candidates'
   * training means (of the candidates installed, or named by `router.candidates`); `all` or
   * absent, every one. Chosen by cross-validation (`router.pool`).
   */
  pool?: RouterPool;
  scaler: Scaler;
  candidates: CandidateModel[];
  training: RouterTraining;
}

/** The router file the package ships: trained on the offline model's evals (see docs/methods/router.md). */
export const DEFAULT_ROUTER_FILE = join(__dirname, '..', 'data', 'offline-router.json');

/** Reads and checks a router file; every problem names the file and the field. */
export function loadRouterFile(path: string): RouterFile {
  if (!existsSync(path)) throw new MultihopError('ROUTER_FILE', `router file ${path} does not exist; train one with: multihop train router --from <eval dir> --out ${path}`);
  let parsed: unknown;
  try {
    parsed = readJsonFile(path);
  } catch (error) {
    throw new MultihopError('ROUTER_FILE', `cannot read the router file ${path}: ${(error as Error).message}`);
  }
  const file = parsed as RouterFile;
  const fail = (field: string, what: string): never => {
    throw new MultihopError('ROUTER_FILE', `${path}: field ${field}: ${what}`);
  };
  if (file?.format !== ROUTER_FORMAT) fail('format', `expected "${ROUTER_FORMAT}", got ${JSON.stringify((parsed as { format?: unknown })?.format)}`);
  // A file of another version may mean its fields otherwise: refused, not misread.
  if (file.version !== 1) fail('version', `expected 1 (the version this package reads), got ${JSON.stringify((parsed as { version?: unknown }).version)}; retrain it with multihop train router`);
  const e = file.embedding;
  if (e !== undefined) {
    if (typeof e?.spec !== 'string' || !e.spec || typeof e.embedder !== 'string' || !e.embedder) fail('embedding', 'expected the embedder\'s spec and id');
    if (!Number.isInteger(e.dimensions) || e.dimensions < 1) fail('embedding.dimensions', `expected a whole number ≥ 1, got ${JSON.stringify(e.dimensions)}`);
    if (!finiteList(e.mean, e.dimensions)) fail('embedding.mean', `expected ${e.dimensions} numbers`);
    if (!Array.isArray(e.components) || e.components.length === 0) fail('embedding.components', 'expected at least one direction');
    e.components.forEach((u, i) => finiteList(u, e.dimensions) || fail(`embedding.components[${i}]`, `expected ${e.dimensions} numbers`));
  }
  if (file.featureSpec?.version !== FEATURE_SPEC_VERSION || file.featureSpec.names?.join('|') !== featureNames(file).join('|')) {
    const expected = featureNames(file);
    const names = Array.isArray(file.featureSpec?.names) ? file.featureSpec.names : [];
    const at = expected.findIndex((name, i) => names[i] !== name);
    // As many names as this package reads, one of them other (a file edited by hand, a renamed feature): name it.
    const which = file.featureSpec?.version === FEATURE_SPEC_VERSION && names.length === expected.length && at >= 0 ? `; the first that differs is names[${at}], ${JSON.stringify(names[at])} where this package reads ${JSON.stringify(expected[at])}` : '';
    fail('featureSpec', `trained on another feature set (version ${String(file.featureSpec?.version)}, ${names.length} features; this package reads version ${FEATURE_SPEC_VERSION}, ${expected.length} features${e ? ` with ${e.components.length} embedding components` : ''}${which}); retrain it with multihop train router`);
  }
  if (typeof file.lambda !== 'number' || !Number.isFinite(file.lambda) || file.lambda < 0) fail('lambda', 'expected a number ≥ 0');
  if (file.pool !== undefined && file.pool !== 'all' && file.pool !== 'front') fail('pool', `expected "all" or "front", got ${JSON.stringify(file.pool)}`);
  const d = featureNames(file).length;
  if (!finiteList(file.scaler?.mean, d)) fail('scaler.mean', `expected ${d} numbers`);
  if (!finiteList(file.scaler?.std, d) || !file.scaler.std.every((s) => s > 0)) fail('scaler.std', `expected ${d} numbers > 0`);
  if (!Array.isArray(file.candidates) || file.candidates.length === 0) fail('candidates', 'expected at least one candidate');
  file.candidates.forEach((c, i) => {
    if (typeof c.workflow !== 'string' || !c.workflow) fail(`candidates[${i}].workflow`, 'expected a workflow id');
    const first = file.candidates.findIndex((o) => o.workflow === c.workflow);
    if (first < i) fail(`candidates[${i}].workflow`, `"${c.workflow}" is candidates[${first}]'s too; each candidate once`);
    for (const part of ['quality', 'cost'] as const) {
      if (!finiteList(c[part]?.weights, d) || !Number.isFinite(c[part]?.bias)) fail(`candidates[${i}].${part}`, `expected ${d} weights and a bias, all numbers`);
    }
    if (c.costSmearing !== undefined && !(typeof c.costSmearing === 'number' && Number.isFinite(c.costSmearing) && c.costSmearing > 0)) {
      fail(`candidates[${i}].costSmearing`, `expected a number > 0, got ${JSON.stringify(c.costSmearing)}`);
    }
  });
  // What routing reads of the training record: the model it predicts, and the λ values it compared.
  if (typeof file.training?.model !== 'string') fail('training.model', 'expected the model whose evals it was trained on');
  const grid = file.training.lambda?.grid;
  if (!Array.isArray(grid)) fail('training.lambda.grid', 'expected the λ study (a list of rows)');
  grid.forEach((row, i) => (typeof row?.lambda === 'number' && Number.isFinite(row.lambda) && row.lambda >= 0) || fail(`training.lambda.grid[${i}].lambda`, 'expected a number ≥ 0'));
  if (file.pool === 'front') {
    const lacking = lackingTrainingMeans(file, file.candidates);
    if (lacking !== undefined) fail(`candidates[${lacking}].training`, 'expected the mean quality and tokens on the training questions (pool "front" reads them)');
  }
  return file;
}

/**
 * The index in the file of the first of `candidates` without the mean quality and tokens on its
 * training questions, which the Pareto-front pool is taken from; undefined when all have them.
 */
export function lackingTrainingMeans(file: RouterFile, candidates: readonly CandidateModel[]): number | undefined {
  const lacking = candidates.find((c) => !(Number.isFinite(c.training?.quality) && Number.isFinite(c.training?.tokens)));
  return lacking ? file.candidates.indexOf(lacking) : undefined;
}

/** The names of a router file's features: the wording features, then its embedding components. */
export function featureNames(file: Pick<RouterFile, 'embedding'>): string[] {
  return [...FEATURE_NAMES, ...componentNames(file.embedding?.components.length ?? 0)];
}

const finiteList = (list: unknown, length: number): boolean => Array.isArray(list) && list.length === length && list.every((x) => typeof x === 'number' && Number.isFinite(x));

/** Writes a router file whole (a temporary file renamed over it: a kill never leaves half a file). */
export function saveRouterFile(path: string, file: RouterFile): void {
  writeFileWhole(path, `${JSON.stringify(file, null, 1)}\n`);
}
