import type { ZodObject } from 'zod';
import type { ChatMessage, ModelPort } from '../model/port';
import type { Embedder, RetrieverPort } from '../retriever';
import type { Question } from '../types';

/** A reward with the components it is made of and their weights (total = Σ weight × component). */
export interface RewardBreakdown {
  total: number;
  components: Record<string, number>;
  weights: Record<string, number>;
}

/**
 * One sampled candidate of a role's prompt, as one line of rollouts JSONL. `prompt` and
 * `completion` are chat messages (TRL's conversational prompt-completion format); `data_source`,
 * `reward_model` and `extra_info` are the fields verl's RL datasets carry. Rewards and
 * advantages come computed, so a trainer can use them as given or recompute them from
 * `reward_model.ground_truth`.
 */
export interface RolloutRecord {
  group_id: string;
  question_id: string;
  data_source: string;
  /** The role's stage in the method's training order (1-based). */
  stage: number;
  role: string;
  prompt_id: string;
  prompt_version: string;
  /** 0 is the greedy candidate; 1…G−1 are samples. */
  sample: number;
  prompt: ChatMessage[];
  completion: ChatMessage[];
  reward: number;
  reward_components: Record<string, number>;
  reward_weights: Record<string, number>;
  /** Group-relative advantage (reward minus the group's mean, optionally over its std). */
  advantage: number;
  reward_model: { style: 'rule'; ground_truth: Record<string, unknown> };
  extra_info: Record<string, unknown>;
  /**
   * Multi-agent methods (MMOA-RAG's MAPPO): the run all of one episode's agent turns belong to,
   * so a trainer with a shared critic can put them back together, and the episode's shared
   * return (the answer's F1) that each agent's reward adds its own penalty to.
   */
  episode_id?: string;
  shared_return?: number;
}

export interface RolloutOptions {
  model: ModelPort;
  /** The retriever for this question (scoped to its own paragraphs in the closed setting). */
  retriever: RetrieverPort;
  /** G: candidates per group. */
  group: number;
  /** Dataset name, written as each record's `data_source`. */
  dataset: string;
  /** How advantages are normalised within a group. */
  advantages?: AdvantageOptions;
  /**
   * The sampling temperature of candidates 1…G−1 (default ROLLOUT_TEMPERATURE): their calls of the
   * trained role carry it (`candidateModel`). Candidate 0 keeps the role's configured temperature,
   * so it is the greedy candidate when the model config says 0. Providers that do not sample (the
   * offline model) ignore it; the `sample` variable keeps the candidates' cache keys apart.
   */
  temperature?: number;
}

/** Candidates 1…G−1 of a rollout group are drawn at this temperature unless RolloutOptions.temperature says otherwise (verl's and TRL's default; the methods' papers give none, HERA's 0.9 is its own). */
export const ROLLOUT_TEMPERATURE = 1;

/**
 * The model port candidate `sample` of a rollout group calls: for sample 0 the port itself, for
 * the others a port whose calls of `roles` (the role being trained; every role when omitted),
 * and of those only the prompts `prompts` names by id when given (HERA samples its orchestrator's
 * topology prompt, not its repair prompt), carry the group's sampling temperature, unless a call
 * sets its own.
 */
export function candidateModel(model: ModelPort, sample: number, options: { temperature?: number; roles?: readonly string[]; prompts?: readonly string[] } = {}): ModelPort {
  if (sample === 0) return model;
  const temperature = options.temperature ?? ROLLOUT_TEMPERATURE;
  const sampled = (role: string, promptId: string) => (options.roles === undefined || options.roles.includes(role)) && (options.prompts === undefined || options.prompts.includes(promptId));
  return {
    modelFor: (role) => model.modelFor(role),
    call: (request) => {
      const role = request.role ?? request.prompt.role;
      return model.call(request.temperature === undefined && sampled(role, request.prompt.id) ? { ...request, temperature } : request);
    },
  };
}

/** One trained role, in training order. */
export interface TrainingStage {
  stage: number;
  role: string;
  /** The agent's name in the paper ('Plan Agent'). */
  agent: string;
}

/**
 * What a method whose paper trains its agents offers a trainer (TRL, verl, OpenRLHF): its roles
 * in training order and rollouts of a question with per-role rewards and group-relative
 * advantages. Weight updates are the trainer's; this produces what it consumes. Rollouts see
 * the gold (they score candidates), as the scorer does; workflow runs never do.
 */
export interface Trainable {
  /** The paper's training algorithm: 'MAPGRPO', 'MAPPO', 'PPO'. */
  algorithm: string;
  stages: readonly TrainingStage[];
  collectRollouts(question: Question, options: RolloutOptions): Promise<RolloutRecord[]>;
  /**
   * Supervised warm-start data from rollouts (MMOA-RAG starts each agent from SFT before MAPPO):
   * the turns of successful episodes as chat examples, by role. `multihop rollouts --sft DIR`
   * writes one `<role>.jsonl` per role, each line `{ messages }`.
   */
  sftExamples?(records: readonly RolloutRecord[]): Array<{ role: string; messages: ChatMessage[] }>;
}

export interface AdvantageOptions {
  /** Divide by the group's standard deviation (GRPO's usual form); off gives reward minus group mean. */
  scaleByStd?: boolean;
  /** Added to the std so a group of equal rewards gets advantages of 0, not NaN. */
  epsilon?: number;
}

/**
 * GRPO group-relative advantages: each candidate's reward minus the mean reward of its group,
 * optionally over the group's (population) standard deviation. Within a group they sum to zero,
 * so the policy is pushed only towards what beat its own siblings.
 */
export function groupAdvantages(rewards: readonly number[], options: AdvantageOptions = {}): number[] {
  if (rewards.length === 0) return [];
  // A group whose candidates all scored the same carries no signal; floating-point noise in the mean must not invent one.
  if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const centred = rewards.map((r) => r - mean);
  if (!options.scaleByStd) return centred;
  const std = Math.sqrt(centred.reduce((a, c) => a + c * c, 0) / rewards.length);
  return centred.map((c) => c / (std + (options.epsilon ?? 1e-6)));
}

/** What `multihop train` hands a local trainer. */
export interface LocalTrainingOptions {
  model: ModelPort;
  /** Which model served the rollouts (`offline`, `openai:gpt-4o-mini`), for the policy file's record. */
  modelId: string;
  /** The retriever for a question (scoped to its own paragraphs in the closed setting). */
  retrieverFor(question: Question): RetrieverPort;
  /** The training questions, with gold: rewards are computed from it. */
  questions: readonly Question[];
  /** The dataset's name, for the policy file's record. */
  dataset: string;
  /** The policy file to write (and to resume from, when it holds a checkpoint). */
  out: string;
  /** The trainer's settings, already checked against its `settings` schema (α, epochs, seed, ...). */
  settings: Record<string, unknown>;
  /** Called after each epoch with its figures (mean reward, F1, cost, ...). */
  onEpoch?(progress: { epoch: number; epochs: number; metrics: Record<string, number> }): void;
  signal?: AbortSignal;
}

/** One question × workflow of a finished evaluation (`multihop eval`), as a trainer that learns from evals reads it. */
export interface EvalOutcome {
  /** The eval's dataset (`hotpotqa-dev`). */
  dataset: string;
  questionId: string;
  question: string;
  workflow: string;
  /** The judge's verdict (PAR² A.2); null when the answer was not judged. */
  correct: 0 | 1 | null;
  em: number;
  f1: number;
  /** The workflow's own prompt + completion tokens (the judge's are not counted). */
  tokens: number;
  llmCalls: number;
  latencyMs: number;
  status: 'ok' | 'partial' | 'error';
  /**
   * For a failed run (status error): true when the failure is the workflow's own (a reply past
   * its repair round, an invalid plan, a step limit: it answered nothing, a wrong answer with
   * `correct` 0, to learn from); absent when it says nothing about the question (an outage, a
   * damaged store), which trainers leave out.
   */
  ownFailure?: true;
}

/** One eval directory a trainer learned from: what the training record keeps about it. */
export interface EvalSource {
  dir: string;
  dataset: string;
  setting: string;
  /** The model that ran the workflows (`offline`, `openai:gpt-4o-mini`). */
  model: string;
  judge?: string;
  /** The eval's first question's position in its file (`--offset`), and how many it ran. */
  offset: number;
  /** `--part K/N`: the questions were those of part K of N by id (of the eval, or chosen from it by the trainer). */
  part?: { part: number; of: number };
  questions: number;
  /** The ids of those questions. */
  questionIds: string[];
  workflows: string[];
  /** Each workflow's settings as the eval ran it (run.json's `settings`), where the eval recorded them. */
  workflowSettings?: Record<string, Record<string, unknown>>;
  /** The eval's run budget (--max-llm-calls, --max-tokens, --timeout), if it had one. */
  budget?: Record<string, number>;
}

/** What `multihop train <id> --from <eval dir> ...` hands a trainer that learns from evals. */
export interface EvalTrainingOptions {
  outcomes: readonly EvalOutcome[];
  sources: readonly EvalSource[];
  /** The file to write. */
  out: string;
  /** The trainer's settings, already checked against its `settings` schema. */
  settings: Record<string, unknown>;
  /** Lines worth showing as training goes (the λ chosen, the cross-validated figures). */
  log?(line: string): void;
  /** The caller's embedder for a spec (see WorkflowContext.embedder): for features from the question's embedding. */
  embedder?(spec: string): Embedder;
}

/**
 * A policy small enough to train on this machine, either from rewards of real runs (MAO-ARAG's
 * planner over its discrete workflow space: `train`) or from finished evaluations (the router's
 * quality and cost predictors: `trainFromEvals`). `multihop train <id>` runs it; the method's
 * workflow loads the file it writes. Seeded; the file records model, data and settings.
 */
export interface LocalTrainer {
  /** `mao-arag-planner`, `router`: what `multihop train` takes. */
  id: string;
  description: string;
  /** The training settings with their defaults; `--alpha`, `--epochs`, `--seed`, `--lambda` and `--set <id>.<key>=<v>` are checked by it. */
  settings?: ZodObject;
  train?(options: LocalTrainingOptions): Promise<{ file: string; metrics: Record<string, number> }>;
  trainFromEvals?(options: EvalTrainingOptions): Promise<{ file: string; metrics: Record<string, number> }>;
}
