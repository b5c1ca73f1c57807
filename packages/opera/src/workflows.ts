import {
  chartFromXState,
  defineWorkflow,
  MultihopError,
  type Chart,
  type Query,
  type RunContext,
  type RunOptions,
  type RunResult,
  type Workflow,
  type WorkflowOutput,
} from '@multihop/core';
import { createActor, type InspectionEvent, type Snapshot } from 'xstate';
import { OPERA_PAPER, OPERA_VARIANTS } from './variants';
import { createOperaMachine, type OperaContext, type OperaRuntime, type OperaSettings, type OperaVariant } from './machine';


/** Defaults: top-5 sentence chunks (the paper), two rewrites per sub-goal, six steps, one plan repair round. */
export const OPERA_DEFAULTS: OperaSettings = { topK: 5, maxRewrites: 2, maxSteps: 6, planRepairs: 1 };

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

export interface OperaWorkflow extends Workflow {
  variant: OperaVariant;
  settings: OperaSettings;
  /** Continues a persisted run (`data.snapshot` of a paused result) in a new actor. */
  resume(query: Query, snapshot: unknown, options: RunOptions): Promise<RunResult>;
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
};

/**
 * An OPERA workflow on a real XState actor. Inspection events become trace events: every
 * transition the machine takes is a `decision` at its source state naming the guard that let
 * it through (or `else`), so a UI sees the machine move; every state that does work is a node.
 */
export function createOperaWorkflow(variant: OperaVariant = 'full', options: OperaOptions = {}): OperaWorkflow {
  const { pauseWhen, varsFor, ...overrides } = options;
  const settings: OperaSettings = { ...OPERA_DEFAULTS, ...stripUndefined(overrides) };
  const { id, title } = OPERA_VARIANTS[variant];
  const chart = (): Chart => chartFromXState(createOperaMachine(variant, settings), { id, title, labels: LABELS });

  const execute = (snapshot: unknown) => async (query: Query, ctx: RunContext): Promise<WorkflowOutput> => {
    let failure: unknown;
    const machine = createOperaMachine(variant, settings, { ctx, ...(varsFor ? { varsFor } : {}), onFailure: (error) => (failure = error) });
    let paused = false;
    const actor = createActor(machine, {
      input: { question: query.text },
      ...(snapshot ? { snapshot: snapshot as Snapshot<unknown> as never } : {}),
      inspect: (event: InspectionEvent) => traceInspection(ctx, event),
    });
    const final = await new Promise<OperaContext>((resolve, reject) => {
      const onAbort = () => {
        actor.stop();
        reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted'));
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      actor.subscribe({
        next: (state) => {
          if (state.status === 'done') {
            ctx.signal.removeEventListener('abort', onAbort);
            resolve(state.context);
            return;
          }
          if (pauseWhen && !paused && typeof state.value === 'string' && pauseWhen(state.value, state.context)) {
            paused = true;
            const persisted = actor.getPersistedSnapshot();
            actor.stop();
            ctx.signal.removeEventListener('abort', onAbort);
            ctx.trace.emit(state.value, 'decision', { decision: 'paused', state: state.value });
            resolve({ ...state.context, stopReason: 'paused', pausedSnapshot: JSON.parse(JSON.stringify(persisted)) } as OperaContext);
          }
        },
        error: (error) => reject(error),
      });
      actor.start();
    });
    if (final.error) throw failure ?? new MultihopError('OPERA_FAILED', final.error.message);
    const pausedSnapshot = (final as OperaContext & { pausedSnapshot?: unknown }).pausedSnapshot;
    const answer = final.answer || lastAnswer(final);
    return {
      answer,
      ...(final.stopReason ? { stopReason: final.stopReason } : {}),
      data: {
        variant,
        settings,
        plan: final.plan,
        planSource: final.planSource,
        planHistory: final.planHistory,
        memory: final.memory,
        stepsTaken: final.stepsTaken,
        rewrites: final.memory.reduce((n, e) => n + e.attempts.filter((a) => a.rewrite).length, 0),
        reasoning: final.reasoning,
        ...(pausedSnapshot ? { snapshot: pausedSnapshot } : {}),
      },
    };
  };

  const base = defineWorkflow({ id, title, paper: OPERA_PAPER, chart, execute: execute(undefined) });
  return {
    ...base,
    variant,
    settings,
    resume: (query, snapshot, runOptions) =>
      defineWorkflow({ id, title, paper: OPERA_PAPER, chart, execute: execute(snapshot) }).run(query, runOptions),
  };
}

function lastAnswer(context: OperaContext): string {
  return [...context.memory].reverse().find((e) => e.answer)?.answer ?? '';
}

interface TransitionLike {
  source?: { key?: string; always?: readonly unknown[] };
  target?: ReadonlyArray<{ key?: string }>;
  guard?: unknown;
  eventType?: string;
}

/** `@xstate.microstep` names the transitions taken; each becomes a decision at its source state. */
function traceInspection(ctx: RunContext, event: InspectionEvent): void {
  if (event.type !== '@xstate.microstep' || ctx.trace.isClosed) return;
  for (const t of (event as unknown as { _transitions: TransitionLike[] })._transitions) {
    const from = t.source?.key ?? '?';
    const to = (t.target ?? []).map((s) => s.key ?? '?');
    if (to.length === 0) continue;
    const guard = typeof t.guard === 'string' ? t.guard : ((t.guard as { type?: string } | undefined)?.type ?? undefined);
    ctx.trace.emit(from, 'decision', {
      // An unguarded eventless transition is a choice's `else` when it has guarded siblings, else a plain step.
      decision: guard ?? (t.eventType !== '' ? 'transition' : (t.source?.always?.length ?? 0) > 1 ? 'else' : 'always'),
      from,
      to: to.join(','),
      event: eventName(t.eventType ?? ''),
    });
  }
}

function eventName(eventType: string): string {
  if (eventType === '') return 'always';
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  return done ? `${done[1]}: ${done[2]}` : eventType;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const opera = (options?: OperaOptions) => createOperaWorkflow('full', options);
export const operaNoPlan = (options?: OperaOptions) => createOperaWorkflow('no-plan', options);
export const operaNoRewrite = (options?: OperaOptions) => createOperaWorkflow('no-rewrite', options);
