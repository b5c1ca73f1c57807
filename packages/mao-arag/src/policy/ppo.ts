import { Matrix } from 'ml-matrix';
import { actionProbabilities, type PolicyHead } from './PlannerPolicy';

/** PPO's knobs for the planner policy (Schulman et al. 2017: clipped surrogate, value baseline, entropy bonus). */
export interface PpoHyperparameters {
  /** ε of the clipped ratio. */
  clip: number;
  /** Step size of the policy's gradient ascent. */
  learningRate: number;
  /** Step size of the value baseline's regression. */
  valueLearningRate: number;
  /** β: weight of the entropy bonus. */
  entropy: number;
  /** Passes over each epoch's batch. */
  updateEpochs: number;
  /** L2 shrinkage of the feature weights (not the bias) per pass: a feature must keep earning its weight. */
  weightDecay: number;
}

// Chosen on the train splits only (hotpotqa-train and musique-train, a quarter held out): see docs/methods/mao-arag.md.
export const PPO_DEFAULTS: PpoHyperparameters = { clip: 0.2, learningRate: 3, valueLearningRate: 0.5, entropy: 0.01, updateEpochs: 10, weightDecay: 0.05 };

/** One decision of a batch: its features, the action taken, log π_old(a|x), and the episode's return R. */
export interface PpoSample {
  features: number[];
  action: number;
  logProbability: number;
  reward: number;
}

/** Mean entropy of π(·|x) over the rows of X. */
export function meanEntropy(head: PolicyHead, features: Matrix): number {
  const p = actionProbabilities(head, features);
  let total = 0;
  for (let i = 0; i < p.rows; i++) total -= p.getRow(i).reduce((s, q) => s + (q > 0 ? q * Math.log(q) : 0), 0);
  return p.rows > 0 ? total / p.rows : 0;
}

/**
 * One PPO update of a linear-softmax head on a batch, in place. Advantages are R − V(x),
 * standardised over the batch; the policy ascends the clipped surrogate plus β·entropy, whose
 * gradient with respect to the logits is analytic for a softmax, so W moves by Gᵀ X (G: n × A);
 * the value baseline descends its squared error. Returns the figures of the last pass.
 */
export function ppoUpdate(head: PolicyHead, batch: readonly PpoSample[], hyper: PpoHyperparameters): { clippedShare: number; valueError: number } {
  if (batch.length === 0) return { clippedShare: 0, valueError: 0 };
  const n = batch.length;
  const X = new Matrix(batch.map((s) => s.features));
  const R = Matrix.columnVector(batch.map((s) => s.reward));
  const baseline = X.mmul(Matrix.columnVector(head.value));
  const raw = Matrix.sub(R, baseline).getColumn(0);
  const mean = raw.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(raw.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  const advantages = raw.map((a) => (n > 1 && std > 1e-8 ? (a - mean) / std : a));
  let clippedShare = 0;
  let valueError = 0;
  for (let pass = 0; pass < hyper.updateEpochs; pass++) {
    const P = actionProbabilities(head, X);
    const G = Matrix.zeros(n, head.actions.length);
    let clipped = 0;
    for (let i = 0; i < n; i++) {
      const p = P.getRow(i);
      const a = batch[i]!.action;
      const ratio = p[a]! / Math.exp(batch[i]!.logProbability);
      const A = advantages[i]!;
      const inactive = (A > 0 && ratio > 1 + hyper.clip) || (A < 0 && ratio < 1 - hyper.clip);
      if (inactive) clipped++;
      const H = -p.reduce((s, q) => s + (q > 0 ? q * Math.log(q) : 0), 0);
      for (let j = 0; j < p.length; j++) {
        // d(ratio·A)/dz_j = ratio·A·(1[j = a] − p_j); dH/dz_j = −p_j (log p_j + H).
        const surrogate = inactive ? 0 : ratio * A * ((j === a ? 1 : 0) - p[j]!);
        const entropy = -p[j]! * (Math.log(Math.max(p[j]!, 1e-12)) + H);
        G.set(i, j, (surrogate + hyper.entropy * entropy) / n);
      }
    }
    const W = new Matrix(head.weights).add(G.transpose().mmul(X).mul(hyper.learningRate));
    if (hyper.weightDecay > 0) {
      // Column 0 is the bias feature: the policy's prior over workflows is not shrunk.
      for (let r = 0; r < W.rows; r++) for (let c = 1; c < W.columns; c++) W.set(r, c, W.get(r, c) * (1 - hyper.learningRate * hyper.weightDecay));
    }
    head.weights = W.to2DArray();
    const V = X.mmul(Matrix.columnVector(head.value));
    const residual = Matrix.sub(V, R);
    const gradient = X.transpose().mmul(residual).div(n);
    head.value = Matrix.columnVector(head.value).sub(gradient.mul(hyper.valueLearningRate)).getColumn(0);
    clippedShare = clipped / n;
    valueError = residual.getColumn(0).reduce((s, r) => s + r * r, 0) / n;
  }
  return { clippedShare, valueError };
}
