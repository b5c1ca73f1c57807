import { Matrix } from 'ml-matrix';
import { MultihopError, readJsonFile, writeFileWhole } from '@multihop/core';
import type { PlanReply, WorkflowPlanner } from '../agents/Planner';
import { WORKFLOW_SPACE, workflowKey, type PlanLevel } from '../workflowSpace';
import { FEATURE_NAMES, FEATURE_SPEC_VERSION, questionFeatures } from './features';

export const POLICY_FORMAT = 'mao-arag-planner-policy';

/** One level's linear-softmax policy π(a|x) = softmax(W x) and its value baseline V(x) = v·x. */
export interface PolicyHead {
  /** The actions, as workflow keys (`QR+R+DS+AG`), in WORKFLOW_SPACE order. */
  actions: string[];
  /** W: one row per action, one column per feature. */
  weights: number[][];
  /** v: the value baseline's weights, one per feature. */
  value: number[];
}

/** How a policy was trained: what the policy file records beside the weights. */
export interface PolicyTraining {
  /** The model that served the executors and the planner's rollouts (`offline`, `openai:gpt-4o-mini`). */
  model: string;
  /** The training data: dataset names and question ids. */
  data: { datasets: string[]; questionIds: string[] };
  alpha: number;
  formatPenalty: number;
  seed: number;
  epochs: number;
  epochsDone: number;
  /** The cost normalisers (mao-arag.md, Reward: CP), measured before training. */
  costScale: { tokens: number; turns: number; retrievals: number };
  hyperparameters: Record<string, number>;
  /** Per-epoch figures, in order. */
  history: Array<{ epoch: number; meanReward: number; f1: number; cost: number; invalid: number; entropy: number }>;
  /** The random generator's state after the last epoch (resume continues the same stream). */
  rngState: number;
  settings: Record<string, number>;
}

/** The planner policy as its JSON file holds it. */
export interface PlannerPolicy {
  format: typeof POLICY_FORMAT;
  version: 1;
  featureSpec: { version: number; names: string[] };
  heads: Record<PlanLevel, PolicyHead>;
  training?: PolicyTraining;
}

/** An untrained policy: all weights 0, so every workflow is equally likely. */
export function createPolicy(): PlannerPolicy {
  const head = (level: PlanLevel): PolicyHead => ({
    actions: WORKFLOW_SPACE[level].map(workflowKey),
    weights: WORKFLOW_SPACE[level].map(() => FEATURE_NAMES.map(() => 0)),
    value: FEATURE_NAMES.map(() => 0),
  });
  return { format: POLICY_FORMAT, version: 1, featureSpec: { version: FEATURE_SPEC_VERSION, names: [...FEATURE_NAMES] }, heads: { top: head('top'), sub: head('sub') } };
}

/** Row-wise softmax of a logits matrix (one row per sample). */
export function softmaxRows(logits: Matrix): Matrix {
  const out = logits.clone();
  for (let i = 0; i < out.rows; i++) {
    const row = out.getRow(i);
    const max = Math.max(...row);
    const exps = row.map((v) => Math.exp(v - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    out.setRow(i, exps.map((e) => e / sum));
  }
  return out;
}

/** π(·|x) for a batch of feature rows X (n × F): softmax(X Wᵀ). */
export function actionProbabilities(head: PolicyHead, features: Matrix): Matrix {
  return softmaxRows(features.mmul(new Matrix(head.weights).transpose()));
}

/** V(x) for a batch of feature rows. */
export function values(head: PolicyHead, features: Matrix): number[] {
  return features.mmul(Matrix.columnVector(head.value)).getColumn(0);
}

/** The distribution the policy puts on `level`'s workflows for `question`. */
export function policyDistribution(policy: PlannerPolicy, question: string, level: PlanLevel): Array<{ workflow: string; probability: number }> {
  const head = policy.heads[level];
  const probabilities = actionProbabilities(head, new Matrix([questionFeatures(question, level)])).getRow(0);
  return head.actions.map((workflow, i) => ({ workflow, probability: probabilities[i]! }));
}

/** One decision the policy made, for a PPO update. */
export interface PolicyDecision {
  level: PlanLevel;
  features: number[];
  action: number;
  /** log π_old(a|x) when it was taken. */
  logProbability: number;
}

/**
 * The learned planner: writes the workflow the policy prefers for the question (greedy), or
 * samples one with `sample` (training), recording each decision with `record`.
 */
export function policyPlanner(policy: PlannerPolicy, options: { sample?: () => number; record?: (decision: PolicyDecision) => void } = {}): WorkflowPlanner {
  return {
    source: 'policy',
    async plan(request): Promise<PlanReply> {
      const { decision, reply } = policyDecision(policy, request.question, request.level, options.sample);
      options.record?.(decision);
      return reply;
    },
  };
}

/** The policy's decision on one turn: the most probable workflow, or one sampled with `sample` (uniform in [0, 1)). */
export function policyDecision(policy: PlannerPolicy, question: string, level: PlanLevel, sample?: () => number): { decision: PolicyDecision; reply: PlanReply } {
  const features = questionFeatures(question, level);
  const head = policy.heads[level];
  const probabilities = actionProbabilities(head, new Matrix([features])).getRow(0);
  let action = 0;
  if (sample) {
    let u = sample();
    action = probabilities.length - 1;
    for (let i = 0; i < probabilities.length; i++) {
      u -= probabilities[i]!;
      if (u < 0) {
        action = i;
        break;
      }
    }
  } else {
    probabilities.forEach((p, i) => {
      if (p > probabilities[action]!) action = i;
    });
  }
  return {
    decision: { level, features, action, logProbability: Math.log(Math.max(probabilities[action]!, 1e-12)) },
    reply: { text: head.actions[action]!.split('+').join(','), source: 'policy', detail: { probability: Math.round(probabilities[action]! * 1e4) / 1e4 } },
  };
}

/** Reads and checks a policy file written by `trainPlanner`. */
export function loadPolicy(path: string): PlannerPolicy {
  let parsed: unknown;
  try {
    parsed = readJsonFile(path);
  } catch (error) {
    throw new MultihopError('MAO_POLICY', `cannot read the planner policy ${path}: ${(error as Error).message}`);
  }
  const policy = parsed as PlannerPolicy;
  if (policy?.format !== POLICY_FORMAT) throw new MultihopError('MAO_POLICY', `${path} is not a MAO-ARAG planner policy (format "${String((parsed as { format?: unknown })?.format)}")`);
  if (policy.featureSpec?.version !== FEATURE_SPEC_VERSION || policy.featureSpec.names.join('|') !== FEATURE_NAMES.join('|')) {
    throw new MultihopError('MAO_POLICY', `${path} was trained on another feature set (version ${String(policy.featureSpec?.version)}); retrain it`);
  }
  for (const level of ['top', 'sub'] as const) {
    const head = policy.heads?.[level];
    const expected = WORKFLOW_SPACE[level].map(workflowKey);
    if (!head || head.actions.join('|') !== expected.join('|') || head.weights.length !== expected.length || head.weights.some((row) => row.length !== FEATURE_NAMES.length)) {
      throw new MultihopError('MAO_POLICY', `${path}: the ${level}-level head does not match the workflow space`);
    }
  }
  return policy;
}

/** Writes a policy file whole (a temporary file renamed over it, so a kill never leaves half a file). */
export function savePolicy(path: string, policy: PlannerPolicy): void {
  writeFileWhole(path, `${JSON.stringify(policy, null, 1)}\n`);
}
