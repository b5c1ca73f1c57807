import { withDefaults } from '@multihop/core';
import { defineXStateWorkflow, MAX_TRANSITIONS, type XStateWorkflow } from '@multihop/engine-xstate';
import { OPERA_PAPER, OPERA_VARIANTS } from './variants';
import { createOperaMachine, operaActors, type OperaContext, type OperaRuntime, type OperaSettings, type OperaVariant } from './machine';
import { OPERA_DEFAULTS, OPERA_SETTINGS } from './settings';

export { OPERA_DEFAULTS };

/**
 * Models per role in the paper's setup (opera.md, "Architecture Onboarding": 7B Plan and
 * Analysis-Answer agents, 3B Rewrite agent). Use as `roles` in multihop.config.json with the
 * endpoint's own model names; synthesis runs on the analysis model.
 */
export const OPERA_PAPER_ROLE_MODELS: Readonly<Record<string, string>> = {
  'opera-plan': 'Qwen2.5-7B-Instruct',
  'opera-analysis-answer': 'Qwen2.5-7B-Instruct',
  'opera-synthesis': 'Qwen2.5-7B-Instruct',
  'opera-rewrite': 'Qwen2.5-3B-Instruct',
};

export interface OperaOptions extends Partial<OperaSettings> {
  /**
   * Pauses a run when it enters a state for which this returns true: the actor stops and the
   * result is `partial` with stopReason `paused` and the persisted snapshot in `data.snapshot`,
   * for `resume` in a new actor.
   */
  pauseWhen?: (state: string, context: OperaContext) => boolean;
  /** Extra prompt variables per role (rollouts pass `sample` to draw candidates). */
  varsFor?: OperaRuntime['varsFor'];
}

/** An OPERA workflow; `resume` continues a persisted run (`data.snapshot` of a paused result) in a new actor. */
export interface OperaWorkflow extends XStateWorkflow {
  variant: OperaVariant;
  settings: OperaSettings;
}

const LABELS: Record<string, string> = {
  checkPlan: 'plan valid?',
  repairPlan: 'repair plan',
  fallbackPlan: 'single-step fallback',
  nextSubGoal: 'next sub-goal?',
  checkDependencies: 'dependencies resolved?',
  skipSubGoal: 'skip sub-goal',
  resolve: 'resolve placeholders (TMC)',
  retrieve: 'retrieve top-k sentences',
  judge: 'sufficient?',
  record: 'record in trajectory memory',
  synthesize: 'synthesize from TMC',
  lastStep: 'answer of the last step',
};

/**
 * An OPERA workflow on a real XState actor, run by @multihop/engine-xstate: the machine is
 * built once per workflow, and each run provides the actors bound to its own RunContext.
 * Every transition the machine takes is a `transition` trace event at its source state, naming
 * the guard that let it through (or `else`); every state that does work is a node.
 */
export function createOperaWorkflow(variant: OperaVariant = 'full', options: OperaOptions = {}): OperaWorkflow {
  const { pauseWhen, varsFor, ...overrides } = options;
  const { id, title } = OPERA_VARIANTS[variant];
  const settings: OperaSettings = withDefaults(OPERA_DEFAULTS, overrides, { workflow: id, schema: OPERA_SETTINGS[variant], options: ['pauseWhen', 'varsFor'] });
  const workflow = defineXStateWorkflow({
    id,
    title,
    paper: OPERA_PAPER,
    machine: createOperaMachine(variant, settings),
    labels: LABELS,
    input: (query) => ({ question: query.text }),
    implementations: (ctx) => ({ actors: operaActors.bind({ ctx, ...(varsFor ? { varsFor } : {}) }) }),
    // An agent's failure reaches the run as thrown: a budget stop is a partial result, a malformed reply keeps its raw text.
    failedStates: ['failed'],
    // The engine's guard against a bug's loop, kept above what the settings allow: each sub-goal
    // takes at most a handful of transitions per retrieval, and rewrites add retrievals.
    maxTransitions: Math.max(MAX_TRANSITIONS, 20 * settings.maxSteps * (settings.maxRewrites + 2) + 50),
    ...(pauseWhen ? { pauseWhen } : {}),
    output: ({ context: final }) => ({
      // A run stopped at a failed sub-goal (onStepFailure: stop) has no answer, as the authors' pipeline gives none.
      answer: final.stopReason === 'step-failed' ? '' : final.answer || lastAnswer(final),
      ...(final.stopReason ? { stopReason: final.stopReason } : {}),
      data: {
        variant,
        settings,
        plan: final.plan,
        planSource: final.planSource,
        planHistory: final.planHistory,
        memory: final.memory,
        stepsTaken: final.stepsTaken,
        rewrites: final.memory.reduce((n, e) => n + (e.rewrites ?? 0), 0),
        reasoning: final.reasoning,
      },
    }),
  });
  return { ...workflow, variant, settings };
}

function lastAnswer(context: OperaContext): string {
  return [...context.memory].reverse().find((e) => e.answer)?.answer ?? '';
}


export const opera = (options?: OperaOptions) => createOperaWorkflow('full', options);
export const operaNoPlan = (options?: OperaOptions) => createOperaWorkflow('no-plan', options);
export const operaNoRewrite = (options?: OperaOptions) => createOperaWorkflow('no-rewrite', options);
