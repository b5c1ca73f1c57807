import { findPlaceholders, loopProgress, NO_PROGRESS, readySteps, substitutePlaceholders, topologicalOrder, type NoProgressKind, type PlanStep, type RunContext, type SearchHit } from '@multihop/core';
import { promiseActors } from '@multihop/engine-xstate';
import { assign, setup } from 'xstate';
import { analyseEvidence, type AnalysisVerdict } from './agents/AnalysisAnswerAgent';
import { planSubGoals, type PlanDraft } from './agents/PlanAgent';
import { rewriteQuery, type RewriteOutput } from './agents/RewriteAgent';
import { synthesizeAnswer } from './agents/synthesizeAnswer';
import { memoryLines, resolvedAnswers, type Attempt, type TrajectoryEntry, type TrajectoryMemory } from './TrajectoryMemory';

/** Which parts of OPERA run: the full method, or one of the paper's ablations (opera.md, Mechanisms 1 and 3). */
export type OperaVariant = 'full' | 'no-plan' | 'no-rewrite';

export interface OperaSettings {
  /** Sentence chunks retrieved per query (paper: top-5). */
  topK: number;
  /** Rewrites allowed per sub-goal before its best guess is kept. */
  maxRewrites: number;
  /** Sub-goals executed per question at most. */
  maxSteps: number;
  /** Repair rounds for a malformed plan before the single-step fallback. */
  planRepairs: number;
  /**
   * The final answer: `last-step` is the paper's (the answer of the last executed sub-goal);
   * `llm` is this project's synthesis call over the trajectory memory.
   */
  synthesis: 'llm' | 'last-step';
  /**
   * A sub-goal still insufficient when its rewrites run out: `continue` (this project's default)
   * records its best guess and goes on with the plan; `stop` is the authors' pipeline
   * (Ameame1/OPERA `stop_on_step_failure = True`): the run ends there with no answer, `partial` /
   * `step-failed`.
   */
  onStepFailure: 'continue' | 'stop';
}

/** Why a sub-goal's rewrite loop stopped early: the rewrite repeated a query, or its retrieval found no sentence not seen. */
export interface NoProgressStop {
  kind: NoProgressKind;
  query: string;
  detail: string;
}

/** The sub-goal being executed. */
export interface CurrentSubGoal {
  stepId: string;
  planned: string;
  subGoal: string;
  substitutions: TrajectoryEntry['substitutions'];
  query: string;
  hits: Attempt['hits'];
  attempts: Attempt[];
  rewrites: number;
  pendingRewrite?: { strategy: string; keywords: string[] };
  verdict?: AnalysisVerdict;
  /** Set when the rewrite loop stopped for want of progress. */
  noProgress?: NoProgressStop;
}

/** The machine's context: plain JSON, so `getPersistedSnapshot()` captures a run whole. */
export interface OperaContext {
  question: string;
  variant: OperaVariant;
  settings: OperaSettings;
  planAttempts: number;
  draft?: { steps: PlanStep[]; problems: string[]; raw: unknown };
  plan: PlanStep[];
  planSource: 'planner' | 'repaired' | 'fallback' | 'raw-question';
  /** Every plan the agent proposed with its problems, for the trace, the data and the plan reward. */
  planHistory: Array<{ steps: PlanStep[]; problems: string[]; raw: unknown }>;
  memory: TrajectoryMemory;
  current?: CurrentSubGoal;
  stepsTaken: number;
  answer: string;
  reasoning: string;
  stopReason?: string;
  error?: { message: string };
}

/** What the actors need at run time: the run's traced, metered context. Supplied per run with `machine.provide()`, never in the (persisted) machine context. */
export interface OperaRuntime {
  ctx: RunContext;
  /** Extra prompt variables per role (rollouts pass `sample` to draw candidates). */
  varsFor?: (role: string) => Record<string, unknown>;
}

export const OPERA_GUARDS = ['planValid', 'repairLeft', 'allSubGoalsDone', 'stepsLeft', 'dependenciesResolved', 'sufficient', 'rewritesLeft', 'queryRepeated', 'noNewSentence', 'stepFailed'] as const;

/** A run one of whose sub-goals was recorded without sufficient evidence ends partial with this reason (unless an earlier stop gave one). */
export const STEP_UNRESOLVED = 'step-unresolved';

/** The answer of the last executed (not skipped) sub-goal, else the latest answer in memory: the paper's final answer. */
export function lastStepAnswer(memory: TrajectoryMemory): { stepId: string; answer: string } | undefined {
  const executed = [...memory].reverse().find((e) => e.status !== 'skipped');
  if (executed?.answer) return { stepId: executed.stepId, answer: executed.answer };
  const answered = [...memory].reverse().find((e) => e.answer);
  return answered ? { stepId: answered.stepId, answer: answered.answer } : undefined;
}

/** The next unfinished step of the plan, which acceptPlan put in dependency order (a step after every step it depends on). */
function nextStep(context: OperaContext): PlanStep | undefined {
  const done = new Set(context.memory.map((e) => e.stepId));
  return context.plan.find((s) => !done.has(s.id));
}

function dependenciesMet(context: OperaContext, step: PlanStep): boolean {
  const answers = resolvedAnswers(context.memory);
  const ready = readySteps({ steps: [step] }, answers);
  return ready.length === 1;
}

/**
 * OPERA's invoked actors (opera.md, "Component map"): one async body per agent or tool, a
 * function of its input and the run's runtime. The machine refers to them by name; each run
 * binds them to its own RunContext (`operaActors.bind(runtime)`, provided to the machine).
 */
export const operaActors = promiseActors<OperaRuntime>()({
  planAgent: async (input: { question: string; repair?: { previous: unknown; problems: string[] } }, { ctx, varsFor }): Promise<PlanDraft> => {
    const state = input.repair ? 'repairPlan' : 'plan';
    return ctx.node(state, async () => {
      const draft = await planSubGoals(ctx.model, input.question, input.repair, varsFor?.('opera-plan') ?? {});
      ctx.decide(draft.problems.length ? 'plan-invalid' : 'plan-valid', {
        subGoals: draft.plan.steps.map((s) => s.question),
        ...(draft.problems.length ? { problems: draft.problems } : {}),
      });
      return draft;
    });
  },
  resolvePlaceholders: async (input: { step: PlanStep; memory: TrajectoryMemory }, { ctx }): Promise<{ subGoal: string; substitutions: CurrentSubGoal['substitutions'] }> =>
    ctx.node(
      'resolve',
      async () => {
        // Each sub-goal is a hop of the run's budget (core's maxHops), on top of OPERA's own maxSteps.
        ctx.budget.chargeHop();
        const answers = resolvedAnswers(input.memory);
        const substitutions = findPlaceholders(input.step.question).flatMap((p) =>
          answers[p.stepRef] !== undefined ? [{ placeholder: p.raw, stepId: p.stepRef, answer: answers[p.stepRef]! }] : [],
        );
        const subGoal = substitutePlaceholders(input.step.question, answers);
        ctx.decide('placeholders', { step: input.step.id, planned: input.step.question, subGoal, substitutions });
        return { subGoal, substitutions };
      },
      { step: input.step.id },
    ),
  retrieveChunks: async (
    input: { query: string; hop: number; k: number; seenSentences?: string[] },
    { ctx },
  ): Promise<{ hits: Attempt['hits']; noProgress?: NoProgressStop }> =>
    ctx.node(
      'retrieve',
      async () => {
        // Sentence-level chunks (opera.md: top-5 sentence-level chunks). The run's evidence is
        // passage-level (RunResult lists passage ids), so each sentence counts for its passage.
        const found: SearchHit[] = await ctx.retriever.search(input.query, { level: 'sentence', k: input.k });
        ctx.addEvidence(found.map((h) => ({ ...h, id: h.passageId ?? h.id })), { query: input.query, hop: input.hop });
        const hits = found.map((h) => ({ id: h.id, title: h.title, text: h.text, rank: h.rank, score: h.score, ...(h.passageId ? { passageId: h.passageId } : {}) }));
        // After a rewrite: the analysis reads only this retrieval's sentences, so it needs one this
        // sub-goal's analyses have not read (a new sentence of a known passage counts).
        if (input.seenSentences) {
          const progress = loopProgress({ query: input.query, earlierQueries: [], retrievedIds: hits.map((h) => h.id), seenIds: input.seenSentences });
          if (!progress.progress) {
            ctx.decide(NO_PROGRESS, { kind: progress.kind, query: input.query, detail: progress.detail });
            return { hits, noProgress: { kind: progress.kind, query: input.query, detail: progress.detail } };
          }
        }
        return { hits };
      },
      { query: input.query, hop: input.hop },
    ),
  analysisAnswerAgent: async (
    input: { question: string; subGoal: string; memory: string[]; hits: Attempt['hits']; stepId: string },
    { ctx, varsFor },
  ): Promise<AnalysisVerdict> =>
    ctx.node(
      'analyze',
      async () => {
        const verdict = await analyseEvidence(ctx.model, input, varsFor?.('opera-analysis-answer') ?? {});
        if (verdict.status === 'yes') ctx.draft(verdict.answer);
        return verdict;
      },
      { step: input.stepId },
    ),
  rewriteAgent: async (
    input: { subGoal: string; query: string; analysis: string; previousQueries: string[]; stepId: string },
    { ctx, varsFor },
  ): Promise<RewriteOutput & { noProgress?: NoProgressStop }> =>
    ctx.node(
      'rewrite',
      async () => {
        const output = await rewriteQuery(ctx.model, input, varsFor?.('opera-rewrite') ?? {});
        // A rewrite that repeats one of this sub-goal's queries (an empty one keeps the current query) would retrieve the same sentences.
        const query = output.query || input.query;
        const progress = loopProgress({ query, earlierQueries: input.previousQueries });
        if (progress.progress) return output;
        ctx.decide(NO_PROGRESS, { kind: progress.kind, query, detail: progress.detail, step: input.stepId });
        return { ...output, noProgress: { kind: progress.kind, query, detail: progress.detail } };
      },
      { step: input.stepId },
    ),
  synthesisAgent: async (input: { question: string; memory: TrajectoryMemory }, { ctx }): Promise<{ answer: string; reasoning: string }> =>
    ctx.node('synthesize', async () => {
      const out = await synthesizeAnswer(ctx.model, input.question, input.memory);
      ctx.draft(out.answer);
      return out;
    }),
  lastStepAnswer: async (input: { memory: TrajectoryMemory }, { ctx }): Promise<{ answer: string; reasoning: string }> =>
    ctx.node('lastStep', async () => {
      const last = lastStepAnswer(input.memory);
      ctx.decide('answer', { answer: last?.answer ?? '', step: last?.stepId ?? null });
      if (last) ctx.draft(last.answer);
      return { answer: last?.answer ?? '', reasoning: last ? `the answer of step ${last.stepId}` : 'no step was answered' };
    }),
});

/**
 * Types, actors, guards and actions of every OPERA machine, named once so the chart shows them.
 * Nothing here holds a run: the actors are `operaActors.logic`, stand-ins until a run provides
 * the bound ones.
 */
const operaSetup = setup({
  types: {
    context: {} as OperaContext,
    input: {} as { question: string },
    output: {} as OperaContext,
  },
  actors: operaActors.logic,
  guards: {
    planValid: ({ context }) => (context.draft?.problems.length ?? 1) === 0,
    repairLeft: ({ context }) => context.planAttempts <= context.settings.planRepairs,
    allSubGoalsDone: ({ context }) => nextStep(context) === undefined,
    stepsLeft: ({ context }) => context.stepsTaken < context.settings.maxSteps,
    dependenciesResolved: ({ context }) => {
      const step = nextStep(context);
      return step !== undefined && dependenciesMet(context, step);
    },
    sufficient: ({ context }) => context.current?.verdict?.status === 'yes' && (context.current.verdict.answer ?? '') !== '',
    rewritesLeft: ({ context }) => (context.current?.rewrites ?? 0) < context.settings.maxRewrites,
    // Read the actor's output (its `noProgress`), where the actor has already put the decision in the trace.
    queryRepeated: ({ event }) => (event as unknown as { output?: { noProgress?: NoProgressStop } }).output?.noProgress?.kind === 'repeated-query',
    noNewSentence: ({ event }) => (event as unknown as { output?: { noProgress?: NoProgressStop } }).output?.noProgress?.kind === 'no-new-passage',
    // The sub-goal just recorded found no sufficient evidence (read in `record`, after its entry action).
    stepFailed: ({ context }) => context.memory.at(-1)?.status === 'no',
  },
  actions: {
    // A valid plan may list a step before one it depends on; executed in list order, that step
    // would be skipped for want of an answer. The steps run in dependency order instead, the
    // planner's order kept wherever the dependencies allow (a plan already in order is unchanged).
    acceptPlan: assign(({ context }) => ({
      plan: topologicalOrder({ steps: context.draft?.steps ?? [] }),
      planSource: context.planAttempts > 1 ? ('repaired' as const) : ('planner' as const),
    })),
    useSingleStepPlan: assign(({ context }) => ({
      plan: [{ id: '1', question: context.question, dependsOn: [] }],
      planSource: 'fallback' as const,
    })),
    markStepBudget: assign({ stopReason: () => 'step-budget' }),
    markStepFailed: assign(({ context }) => ({ stopReason: 'step-failed', answer: '', reasoning: `sub-goal ${context.memory.at(-1)?.stepId ?? '?'} found no sufficient evidence, so the run stops without an answer (onStepFailure: stop)` })),
    // The rewrite loop stopped for want of progress: the sub-goal keeps the last analysis's best guess.
    stopRewriteLoop: assign(({ context, event }) => {
      const c = context.current!;
      const noProgress = (event as unknown as { output: { noProgress: NoProgressStop } }).output.noProgress;
      const last = c.attempts.at(-1);
      const verdict = c.verdict ?? (last ? { status: last.status, answer: last.answer, analysis: last.analysis } : undefined);
      // A repeated query was never stored as a rewrite (storeRewrite did not run), but the agent did rewrite.
      const rewrites = noProgress.kind === 'repeated-query' ? c.rewrites + 1 : c.rewrites;
      return { stopReason: NO_PROGRESS, current: { ...c, verdict, noProgress, rewrites, pendingRewrite: undefined } };
    }),
    storePlanDraft: assign(({ context, event }) => storeDraft(context, (event as unknown as { output: PlanDraft }).output)),
    storeRewrite: assign(({ context, event }) => {
      const output = (event as unknown as { output: RewriteOutput }).output;
      const c = context.current!;
      return {
        current: {
          ...c,
          query: output.query || c.query,
          rewrites: c.rewrites + 1,
          pendingRewrite: { strategy: output.strategy, keywords: output.keywords },
          verdict: undefined,
        },
      };
    }),
    storeError: assign(({ event }) => ({ error: { message: errorMessage((event as { error?: unknown }).error) } })),
    recordInTrajectoryMemory: assign(({ context }) => {
      const c = context.current;
      if (!c) return {};
      const verdict = c.verdict;
      const entry: TrajectoryEntry = {
        stepId: c.stepId,
        planned: c.planned,
        subGoal: c.subGoal,
        substitutions: c.substitutions,
        attempts: c.attempts,
        answer: verdict?.answer ?? '',
        status: verdict?.status === 'yes' && verdict.answer !== '' ? 'yes' : 'no',
        rewrites: c.rewrites,
        ...(c.noProgress ? { noProgress: c.noProgress.kind } : {}),
      };
      // A sub-goal recorded without sufficient evidence (its rewrites spent, or none to make) leaves the
      // run answered on a guess: partial, as a no-progress stop already makes it, not ok.
      const unresolved = entry.status === 'no' && !context.stopReason ? { stopReason: STEP_UNRESOLVED } : {};
      return { memory: [...context.memory, entry], current: undefined, stepsTaken: context.stepsTaken + 1, ...unresolved };
    }),
    recordSkipped: assign(({ context }) => {
      const step = nextStep(context);
      if (!step) return {};
      const entry: TrajectoryEntry = { stepId: step.id, planned: step.question, subGoal: step.question, substitutions: [], attempts: [], answer: '', status: 'skipped' };
      return { memory: [...context.memory, entry], stepsTaken: context.stepsTaken + 1 };
    }),
  },
});

/**
 * The OPERA machine (XState v5), for one variant and its settings; defined once, run many
 * times, with no runtime inside. States, guards and actors are named in `setup()`, so the
 * chart read off the machine shows them:
 *
 *   plan → checkPlan —planValid→ nextSubGoal
 *                    —repairLeft→ repairPlan → checkPlan
 *                    —else→ fallbackPlan (single step) → nextSubGoal
 *   nextSubGoal —allSubGoalsDone→ synthesize; —stepsLeft→ checkDependencies; —else (step budget)→ synthesize
 *   checkDependencies —dependenciesResolved→ resolve → retrieve → analyze → judge; —else→ skipSubGoal → nextSubGoal
 *   judge —sufficient→ record; —rewritesLeft→ rewrite → retrieve; —else→ record (best guess)
 *   rewrite —queryRepeated→ record; retrieve (after a rewrite) —noNewSentence→ record (no progress: best guess)
 *   record → nextSubGoal;  synthesize → done  (synthesis 'llm'; with 'last-step', lastStep → done)
 *
 * `no-plan` starts at nextSubGoal with the raw question as the only sub-goal; `no-rewrite` has
 * no rewrite state (and so no rewrite loop to stop). `synthesize` is the final state with
 * `synthesis: 'llm'`; with `'last-step'` (the paper's form) it is `lastStep`, which answers with
 * the last executed sub-goal's answer and calls no model. An actor failure goes to `failed`, keeping its message in the context.
 */
export function createOperaMachine(variant: OperaVariant, settings: OperaSettings) {
  const answer = settings.synthesis === 'llm' ? 'synthesize' : 'lastStep';
  const rewrites = variant !== 'no-rewrite';
  return operaSetup.createMachine({
    id: 'opera',
    initial: variant === 'no-plan' ? 'nextSubGoal' : 'plan',
    context: ({ input }) => ({
      question: input.question,
      variant,
      settings,
      planAttempts: 0,
      plan: variant === 'no-plan' ? [{ id: '1', question: input.question, dependsOn: [] }] : [],
      planSource: variant === 'no-plan' ? 'raw-question' : 'planner',
      planHistory: [],
      memory: [],
      stepsTaken: 0,
      answer: '',
      reasoning: '',
    }),
    output: ({ context }) => context,
    states: {
      ...(variant === 'no-plan'
        ? {}
        : {
            plan: {
              invoke: {
                id: 'planAgent',
                src: 'planAgent',
                input: ({ context }) => ({ question: context.question }),
                onDone: { target: 'checkPlan', actions: 'storePlanDraft' },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
            checkPlan: {
              always: [
                { guard: 'planValid', target: 'nextSubGoal', actions: 'acceptPlan' },
                { guard: 'repairLeft', target: 'repairPlan' },
                { target: 'fallbackPlan' },
              ],
            },
            repairPlan: {
              invoke: {
                id: 'planRepair',
                src: 'planAgent',
                input: ({ context }) => ({
                  question: context.question,
                  repair: { previous: context.draft?.raw ?? {}, problems: context.draft?.problems ?? [] },
                }),
                onDone: { target: 'checkPlan', actions: 'storePlanDraft' },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
            fallbackPlan: {
              entry: 'useSingleStepPlan',
              always: { target: 'nextSubGoal' },
            },
          }),
      nextSubGoal: {
        always: [
          { guard: 'allSubGoalsDone', target: answer },
          { guard: 'stepsLeft', target: 'checkDependencies' },
          { target: answer, actions: 'markStepBudget' },
        ],
      },
      checkDependencies: {
        always: [{ guard: 'dependenciesResolved', target: 'resolve' }, { target: 'skipSubGoal' }],
      },
      skipSubGoal: {
        entry: 'recordSkipped',
        always: { target: 'nextSubGoal' },
      },
      resolve: {
        invoke: {
          id: 'resolvePlaceholders',
          src: 'resolvePlaceholders',
          input: ({ context }) => ({ step: nextStep(context)!, memory: context.memory }),
          onDone: {
            target: 'retrieve',
            actions: assign(({ context, event }) => {
              const step = nextStep(context)!;
              return {
                current: {
                  stepId: step.id,
                  planned: step.question,
                  subGoal: event.output.subGoal,
                  substitutions: event.output.substitutions,
                  query: event.output.subGoal,
                  hits: [],
                  attempts: [],
                  rewrites: 0,
                },
              };
            }),
          },
          onError: { target: 'failed', actions: 'storeError' },
        },
      },
      retrieve: {
        invoke: {
          id: 'retrieveChunks',
          src: 'retrieveChunks',
          input: ({ context }) => {
            const c = context.current!;
            // Retrievals after a rewrite are steps of the rewrite loop: they must find a sentence this sub-goal has not read.
            const seenSentences = c.rewrites > 0 ? c.attempts.flatMap((a) => a.hits.map((h) => h.id)) : undefined;
            return { query: c.query, hop: context.stepsTaken + 1, k: context.settings.topK, ...(seenSentences ? { seenSentences } : {}) };
          },
          onDone: [
            ...(rewrites ? [{ guard: 'noNewSentence' as const, target: 'record' as const, actions: 'stopRewriteLoop' as const }] : []),
            {
              target: 'analyze' as const,
              actions: assign(({ context, event }) => ({ current: { ...context.current!, hits: event.output.hits } })),
            },
          ],
          onError: { target: 'failed', actions: 'storeError' },
        },
      },
      analyze: {
        invoke: {
          id: 'analysisAnswerAgent',
          src: 'analysisAnswerAgent',
          input: ({ context }) => ({
            question: context.question,
            subGoal: context.current!.subGoal,
            memory: memoryLines(context.memory),
            hits: context.current!.hits,
            stepId: context.current!.stepId,
          }),
          onDone: {
            target: 'judge',
            actions: assign(({ context, event }) => {
              const c = context.current!;
              const attempt: Attempt = {
                query: c.query,
                hits: c.hits,
                status: event.output.status,
                answer: event.output.answer,
                analysis: event.output.analysis,
                ...(c.pendingRewrite ? { rewrite: c.pendingRewrite } : {}),
              };
              return { current: { ...c, verdict: event.output, attempts: [...c.attempts, attempt], pendingRewrite: undefined } };
            }),
          },
          onError: { target: 'failed', actions: 'storeError' },
        },
      },
      judge: {
        always:
          variant === 'no-rewrite'
            ? [{ guard: 'sufficient', target: 'record' }, { target: 'record' }]
            : [{ guard: 'sufficient', target: 'record' }, { guard: 'rewritesLeft', target: 'rewrite' }, { target: 'record' }],
      },
      ...(variant === 'no-rewrite'
        ? {}
        : {
            rewrite: {
              invoke: {
                id: 'rewriteAgent',
                src: 'rewriteAgent',
                input: ({ context }) => {
                  const c = context.current!;
                  return { subGoal: c.subGoal, query: c.query, analysis: c.verdict?.analysis ?? '', previousQueries: c.attempts.map((a) => a.query), stepId: c.stepId };
                },
                onDone: [
                  { guard: 'queryRepeated', target: 'record', actions: 'stopRewriteLoop' },
                  { target: 'retrieve', actions: 'storeRewrite' },
                ],
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
          }),
      record: {
        entry: 'recordInTrajectoryMemory',
        // The authors' form stops at a failed sub-goal; the default goes on with its best guess.
        always: settings.onStepFailure === 'stop' ? [{ guard: 'stepFailed', target: 'done', actions: 'markStepFailed' }, { target: 'nextSubGoal' }] : { target: 'nextSubGoal' },
      },
      ...(answer === 'synthesize'
        ? {
            synthesize: {
              invoke: {
                id: 'synthesisAgent',
                src: 'synthesisAgent',
                input: ({ context }: { context: OperaContext }) => ({ question: context.question, memory: context.memory }),
                onDone: {
                  target: 'done',
                  actions: assign(({ event }) => ({ answer: event.output.answer, reasoning: event.output.reasoning })),
                },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
          }
        : {
            lastStep: {
              invoke: {
                id: 'lastStepAnswer',
                src: 'lastStepAnswer',
                input: ({ context }: { context: OperaContext }) => ({ memory: context.memory }),
                onDone: {
                  target: 'done',
                  actions: assign(({ event }) => ({ answer: event.output.answer, reasoning: event.output.reasoning })),
                },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
          }),
      done: { type: 'final' },
      failed: { type: 'final' },
    },
  });
}

function storeDraft(context: OperaContext, draft: PlanDraft): Partial<OperaContext> {
  const entry = { steps: draft.plan.steps, problems: draft.problems, raw: draft.raw };
  return { draft: entry, planAttempts: context.planAttempts + 1, planHistory: [...context.planHistory, entry] };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type OperaMachine = ReturnType<typeof createOperaMachine>;
