import { createHash } from 'node:crypto';
import { goldAnswers, type Budget, type Question } from '@multihop/core';
import type { Setting } from '../setting';
import type { StoreSpec } from './store';

/** How an eval's pairs are run: what every worker needs to run them as the eval process would. */
export interface EvalSpec {
  dataset: string;
  setting: Setting;
  corpus?: string;
  layout?: string;
  skipInvalid?: boolean;
  /** The eval's --model (absent: each worker resolves MULTIHOP_MODEL / multihop.config.json, checked against modelId). */
  model?: string;
  /** The model the eval's results are for (`offline`, `openai:gpt-4o`, with per-role models); a worker resolving another refuses the job. */
  modelId: string;
  /** The eval's providers' fingerprints (RunnerModel.fingerprints); a worker whose differ refuses the job. Absent from jobs of older evals. */
  fingerprints?: { default: string; roles: Record<string, string> };
  /** The roles the eval's workflows call (`rolesCalled`): modelId and fingerprints name only those. Absent: every role (and from jobs of older evals). */
  roles?: string[];
  /** Each run's budget (--max-llm-calls, --max-tokens, --timeout). */
  budget?: Budget;
  /** The sha1 of the id-aliases file the eval's gold answers gained aliases from, if any; a worker whose dataset loads other aliases (or none) refuses the job. Absent from jobs of older evals. */
  answerAliases?: string | null;
  /** The corpus the eval searches (its name and distinct passages); a worker whose corpus is another refuses the job. Absent from jobs of older evals. */
  searched?: { corpus: string; passages: number };
  cacheDir?: string;
  /** The eval's --db, absolute; a worker's own --db wins. */
  db?: string;
}

/** One question × workflow pair of one eval: a BullMQ job's data. */
export interface PairJobData {
  version: 1;
  evalId: string;
  eval: EvalSpec;
  store: StoreSpec;
  workflow: {
    /** The id its rows carry (`par2-rag`, `par2-rag[hopBudget=7]`). */
    id: string;
    /** The installed workflow it is built from (`par2-rag`). */
    base: string;
    /** Every setting it runs with (checked again by the workflow's schema in the worker). */
    settings: Record<string, unknown>;
    /** What it was built from besides its settings (Workflow.artifacts: path → sha1); a worker whose build differs refuses the job. */
    artifacts?: Record<string, string>;
  };
  questionId: string;
  /** questionDigest of the question as the eval loaded it: a worker whose copy of the dataset differs refuses the job. Absent from jobs of older evals. */
  questionDigest?: string;
}

/**
 * What a run and its scoring read of a question: its text, its gold answers with their aliases and
 * its supporting passages. A worker loading its own copy of the dataset must load this one.
 */
export function questionDigest(question: Question): string {
  return createHash('sha1').update(JSON.stringify([question.id, question.text, goldAnswers(question), question.supportingIds])).digest('hex');
}

/** What a finished job returns (kept in Redis with the job). */
export interface PairJobResult {
  worker: string;
  /** False when the pair had been recorded already (by an attempt whose worker died after recording). */
  recorded: boolean;
}

/** Idempotent by (eval id, workflow, question): adding a job whose id exists is a no-op. BullMQ ids cannot hold ':'. */
export function jobId(evalId: string, key: string): string {
  return `${evalId}-${key}`;
}

/**
 * The Redis key an eval following its pairs keeps alive (refreshed as it polls, expiring
 * EVAL_ALIVE_MS after it stopped): a worker tells a live eval whose directory it cannot see (on
 * another machine) from a dead one whose jobs outlived it.
 */
export const evalAliveKey = (evalId: string): string => `multihop-eval:alive:${evalId}`;
export const EVAL_ALIVE_MS = 60_000;

/** Retries of a job whose processor threw (a store or corpus failure, not a failed run: runs return their failures). */
export const JOB_ATTEMPTS = 3;
