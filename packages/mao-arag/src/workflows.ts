import { checkOptionNames, fileSha1, parseSettings, withDefaults, type Workflow as RunnableWorkflow } from '@multihop/core';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import { fixedPlanner, promptPlanner, type WorkflowPlanner } from './agents/Planner';
import { buildMaoAragGraph, type MaoAragSettings } from './graph';
import { loadPolicy, POLICY_FORMAT, policyPlanner, type PlannerPolicy } from './policy/PlannerPolicy';
import { MAO_ARAG_DEFAULTS, maoAragSettingsSchemaFor } from './settings';
import { MAO_ARAG_PAPER, variantId, variantTitle, type MaoVariant } from './variants';
import { FALLBACK_WORKFLOW, SUB_LEVEL_WORKFLOWS, workflowKey, type Workflow as ExecutorWorkflow } from './workflowSpace';

export { MAO_ARAG_DEFAULTS };

export interface MaoAragOptions extends Partial<MaoAragSettings> {
  /** α of the reward, reported in the run's data (the reward itself needs the gold: see maoReward). */
  alpha?: number;
  formatPenalty?: number;
  /** CP's token normaliser, reported in the run's data for the evaluation's R (see rewards.ts). */
  costScaleTokens?: number;
  /** `mao-arag`: a policy file path (or a loaded policy); '' or absent uses the prompted planner. */
  policy?: string | PlannerPolicy;
  /** Fixed QDS/QDP: the workflow each sub-question runs (default R+AG). */
  subWorkflow?: string;
  /** Any planner (training samples from the policy through this); overrides the variant's. */
  planner?: WorkflowPlanner;
}

function plannerFor(variant: MaoVariant, options: MaoAragOptions): { planner: WorkflowPlanner; policyFile?: string } {
  if (options.planner) return { planner: options.planner };
  if (variant.kind === 'fixed') {
    const sub = SUB_LEVEL_WORKFLOWS.find((w) => workflowKey(w) === (options.subWorkflow ?? 'R+AG')) ?? FALLBACK_WORKFLOW;
    return { planner: fixedPlanner(variant.workflow, sub) };
  }
  if (variant.kind === 'planner' && options.policy) {
    return typeof options.policy === 'string' ? { planner: policyPlanner(loadPolicy(options.policy)), policyFile: options.policy } : { planner: policyPlanner(options.policy) };
  }
  return { planner: promptPlanner() };
}

/**
 * A MAO-ARAG workflow on LangGraph: the planner writes a workflow per turn, the validity gate
 * lets valid ones run, executors run in order; decompositions run their sub-questions serially
 * (QDS) or in parallel (QDP) and AS merges. The run's data holds every planner decision and the
 * cost components of the reward; R itself needs the gold F1 (maoReward).
 */
export function createMaoAragWorkflow(variant: MaoVariant = { kind: 'planner' }, options: MaoAragOptions = {}): RunnableWorkflow {
  const { alpha, formatPenalty, costScaleTokens, policy: _policy, subWorkflow: _sub, planner: _planner, ...bounds } = options;
  // Held to the schema `--set` is checked by (a policy already loaded, rather than its file's path, is the library's own option).
  const policy = options.policy;
  const schema = maoAragSettingsSchemaFor(variant);
  checkOptionNames(variantId(variant), options, Object.keys(schema.shape), ['planner']);
  parseSettings(variantId(variant), schema.partial(), {
    ...bounds,
    alpha,
    formatPenalty,
    costScaleTokens,
    ...(options.subWorkflow !== undefined ? { subWorkflow: options.subWorkflow } : {}),
    ...(typeof policy === 'object' && policy?.format === POLICY_FORMAT ? {} : { policy }),
  });
  const settings: MaoAragSettings = withDefaults({ maxTurns: MAO_ARAG_DEFAULTS.maxTurns, maxSubQuestions: MAO_ARAG_DEFAULTS.maxSubQuestions, retrievalK: MAO_ARAG_DEFAULTS.retrievalK }, bounds);
  const reward = withDefaults(
    { alpha: MAO_ARAG_DEFAULTS.alpha, formatPenalty: MAO_ARAG_DEFAULTS.formatPenalty, costScaleTokens: MAO_ARAG_DEFAULTS.costScaleTokens },
    { alpha, formatPenalty, costScaleTokens },
  );
  const { planner, policyFile } = plannerFor(variant, options);
  const workflow = defineGraphWorkflow({
    id: variantId(variant),
    title: variantTitle(variant),
    paper: MAO_ARAG_PAPER,
    graph: buildMaoAragGraph(settings),
    // Each turn is at most validate, fallback, dispatch and 4 executors (8 supersteps with the
    // dispatches between); the turn bound in state ends the run, this only guards against a bug.
    recursionLimit: 12 + 12 * (settings.maxTurns + 1),
    runtime: () => ({ planner }),
    input: (query) => ({ question: query.text, maxTurns: settings.maxTurns }),
    output: (final) => {
      const invalidPlans = final.decisions.filter((d) => !d.valid).length;
      return {
        answer: final.answer,
        ...(final.turnBound ? { stopReason: 'turn-bound' } : {}),
        data: {
          planner: planner.source,
          ...(policyFile ? { policyFile } : {}),
          mode: final.mode,
          workflows: final.decisions,
          subQuestions: final.subQuestions,
          answeredAtTurn: final.answeredAtTurn,
          turns: final.turn,
          // What R = F1 − α·CP − FP needs beside the gold F1 (maoReward computes it with the gold).
          reward: {
            alpha: reward.alpha,
            formatPenalty: invalidPlans > 0 ? reward.formatPenalty : 0,
            invalidPlans,
            turns: final.turn,
            costScale: { tokens: reward.costScaleTokens, turns: settings.maxTurns, retrievals: settings.maxSubQuestions },
          },
          settings: { ...settings, ...reward },
        },
      };
    },
  });
  // A policy file retrained in place must not pass for the one an eval's earlier runs used.
  return policyFile ? { ...workflow, artifacts: { [policyFile]: fileSha1(policyFile) } } : workflow;
}

/** `mao-arag`: the planner (the policy file the `policy` option names, else the prompted planner). */
export const maoArag = (options?: MaoAragOptions) => createMaoAragWorkflow({ kind: 'planner' }, options);
/** `mao-arag-no-train`: the prompted planner, no policy. */
export const maoAragNoTrain = (options?: MaoAragOptions) => createMaoAragWorkflow({ kind: 'no-train' }, options);
/** `mao-arag-fixed:<workflow>`: one fixed workflow of executors for every question, e.g. `maoAragFixed(['QR', 'R', 'AG'])`. */
export const maoAragFixed = (workflow: ExecutorWorkflow, options?: MaoAragOptions) => createMaoAragWorkflow({ kind: 'fixed', workflow }, options);
