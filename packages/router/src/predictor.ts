import { routeValue, type RoutePrediction } from '@multihop/core';
import { Matrix, solve } from 'ml-matrix';

/**
 * The router's predictors: for each candidate workflow, an L2-regularised logistic regression of
 * its quality (judged correct, or F1 as a soft label) and a ridge regression of log(1 + tokens),
 * both on standardised question features. Small, closed-form or Newton-fitted, deterministic:
 * trainable from a few hundred evaluated questions in well under a second.
 */

/** Standardisation of the feature columns: x' = (x − mean) / std (std 1 for a constant column). */
export interface Scaler {
  mean: number[];
  std: number[];
}

/** A linear model: weights over the standardised features, then the bias. */
export interface Linear {
  weights: number[];
  bias: number;
}

export function fitScaler(rows: readonly number[][]): Scaler {
  const d = rows[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length);
  const std = mean.map((m, j) => {
    const v = rows.reduce((s, r) => s + (r[j]! - m) ** 2, 0) / rows.length;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  return { mean, std };
}

export function scale(scaler: Scaler, x: readonly number[]): number[] {
  return x.map((v, j) => (v - scaler.mean[j]!) / scaler.std[j]!);
}

const withBias = (rows: readonly number[][]): Matrix => new Matrix(rows.map((r) => [...r, 1]));

/**
 * Logistic regression by Newton's method (IRLS) with an L2 penalty `l2` on the weights (the bias
 * gets a tiny one, so a candidate that was always right or always wrong still has a finite fit).
 * `y` may be soft labels in [0, 1].
 */
export function fitLogistic(rows: readonly number[][], y: readonly number[], l2: number, iterations = 30): Linear {
  const X = withBias(rows);
  const Xt = X.transpose();
  const d = X.columns;
  const penalty = Array.from({ length: d }, (_, j) => (j === d - 1 ? 1e-4 : l2));
  let w = Matrix.zeros(d, 1);
  for (let it = 0; it < iterations; it++) {
    const p = X.mmul(w).getColumn(0).map(sigmoid);
    // Newton step on the penalised negative log-likelihood: H = Xᵀ S X + P, g = Xᵀ (p − y) + P w.
    const weighted = X.clone();
    for (let i = 0; i < X.rows; i++) {
      const s = Math.max(p[i]! * (1 - p[i]!), 1e-6);
      for (let j = 0; j < d; j++) weighted.set(i, j, weighted.get(i, j) * s);
    }
    const hessian = Xt.mmul(weighted);
    const gradient = Xt.mmul(Matrix.columnVector(p.map((pi, i) => pi - y[i]!)));
    for (let j = 0; j < d; j++) {
      hessian.set(j, j, hessian.get(j, j) + penalty[j]!);
      gradient.set(j, 0, gradient.get(j, 0) + penalty[j]! * w.get(j, 0));
    }
    const step = solve(hessian, gradient);
    w = w.sub(step);
    if (Math.max(...step.getColumn(0).map(Math.abs)) < 1e-6) break;
  }
  const all = w.getColumn(0);
  return { weights: all.slice(0, -1), bias: all.at(-1)! };
}

/** Ridge regression in closed form: (XᵀX + l2·I)⁻¹ Xᵀy, the bias unpenalised. */
export function fitRidge(rows: readonly number[][], y: readonly number[], l2: number): Linear {
  const X = withBias(rows);
  const d = X.columns;
  const A = X.transpose().mmul(X);
  for (let j = 0; j < d - 1; j++) A.set(j, j, A.get(j, j) + l2);
  const w = solve(A, X.transpose().mmul(Matrix.columnVector([...y]))).getColumn(0);
  return { weights: w.slice(0, -1), bias: w.at(-1)! };
}

export function linear(model: Linear, x: readonly number[]): number {
  return model.weights.reduce((s, w, j) => s + w * x[j]!, model.bias);
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * A ridge fit of log(1 + tokens) and its smearing factor (Duan, 1983): the mean of exp(residual)
 * on the training questions. exp(fit) alone predicts the median, not the mean, and under-predicts
 * a workflow whose token counts vary (by a fifth for par2-iterative-chain on the offline model's
 * training evals); exp(fit) · smearing − 1 predicts the mean tokens λ trades against.
 */
export function fitLogTokens(rows: readonly number[][], tokens: readonly number[], l2: number): { cost: Linear; costSmearing: number } {
  const y = tokens.map((t) => Math.log1p(t));
  const cost = fitRidge(rows, y, l2);
  const costSmearing = y.reduce((s, yi, i) => s + Math.exp(yi - linear(cost, rows[i]!)), 0) / Math.max(1, y.length);
  return { cost, costSmearing };
}

/** One candidate's fitted predictors. */
export interface CandidateModel {
  workflow: string;
  /** P(quality) = sigmoid(quality · x). */
  quality: Linear;
  /** log(1 + tokens) ≈ cost · x; expected tokens = exp(cost · x) · costSmearing − 1. */
  cost: Linear;
  /** The cost fit's smearing factor (`fitLogTokens`); absent in files written before it, read as 1. */
  costSmearing?: number;
  /** What the candidate did on the training questions, for the record. */
  training: { n: number; quality: number; tokens: number };
}

/** A candidate's expected quality and tokens on a question, and the value the router ranks by. */
export interface Prediction extends RoutePrediction {
  /** quality − λ · tokens / 1000. */
  value: number;
}

/** Every candidate's expected quality and tokens on one standardised feature vector, in the models' order. */
export function predictAll(models: readonly CandidateModel[], x: readonly number[]): RoutePrediction[] {
  return models.map((m) => ({ workflow: m.workflow, quality: sigmoid(linear(m.quality, x)), tokens: expectedTokens(m, x) }));
}

/** A candidate's expected tokens on a standardised feature vector (≥ 0). */
export function expectedTokens(model: Pick<CandidateModel, 'cost' | 'costSmearing'>, x: readonly number[]): number {
  const z = linear(model.cost, x);
  // Without a smearing factor (older files) this is expm1, exactly as those files were trained to predict.
  return Math.max(0, model.costSmearing === undefined ? Math.expm1(z) : Math.exp(z) * model.costSmearing - 1);
}

/**
 * Predicts every candidate on one standardised feature vector and ranks them by core's
 * `routeValue`, quality − λ·tokens/1000 (best first; ties keep candidate order; a value that is
 * not a finite number last), so the first is `routeChoice`'s pick.
 */
export function rank(models: readonly CandidateModel[], x: readonly number[], lambda: number): Prediction[] {
  const predictions = predictAll(models, x).map((p) => ({ ...p, value: routeValue(p, lambda) }));
  const key = (v: number) => (Number.isFinite(v) ? v : -Infinity);
  return predictions.map((p, i) => ({ p, i })).sort((a, b) => key(b.p.value) - key(a.p.value) || a.i - b.i).map(({ p }) => p);
}

/**
 * The candidates on the Pareto front of their training means: those no other candidate beats on
 * both mean quality and mean tokens (as good and as cheap, better on one). Equal candidates do not
 * beat each other. In the models' order. Routing among these alone (`pool: 'front'`) leaves out
 * candidates that were worse and dearer on average, where a choice among many noisy predictions
 * mostly picks the prediction's error.
 */
export function frontOf<T extends Pick<CandidateModel, 'workflow' | 'training'>>(models: readonly T[]): T[] {
  const beats = (a: T, b: T) =>
    a.training.quality >= b.training.quality && a.training.tokens <= b.training.tokens && (a.training.quality > b.training.quality || a.training.tokens < b.training.tokens);
  return models.filter((m) => !models.some((other) => other !== m && beats(other, m)));
}
