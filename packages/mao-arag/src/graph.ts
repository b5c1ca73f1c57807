import { Annotation, END, Send, START } from '@langchain/langgraph';
import type { SearchHit } from '@multihop/core';
import { append, last, workflowGraph, type GraphRuntime } from '@multihop/engine-langgraph';
import { generateAnswer } from './agents/AnswerGenerator';
import { summariseAnswers } from './agents/AnswerSummariser';
import { selectDocuments } from './agents/DocumentSelector';
import type { WorkflowPlanner } from './agents/Planner';
import { decomposeParallel, decomposeSerial, reviseSubQuestion, type SubAnswer } from './agents/QueryDecomposition';
import { rewriteQuery } from './agents/QueryRewriter';
import { retrieveAll } from './agents/Retrieval';
import {
  describeProblem,
  FALLBACK_WORKFLOW,
  parsePlan,
  validityProblems,
  workflowKey,
  type Executor,
  type PlanLevel,
  type Workflow,
} from './workflowSpace';

export interface MaoAragSettings {
  /** Most planner turns in a run (the authors: 5); a serial decomposition stops there and AS answers. */
  maxTurns: number;
  /** Most sub-questions a decomposition keeps (the authors: 4). */
  maxSubQuestions: number;
  /** Passages Retrieval (R) returns per call. */
  retrievalK: number;
}

/** One planner decision: the workflow as written, whether the gate let it run, and what ran instead. */
export interface PlanDecision {
  turn: number;
  level: PlanLevel;
  /** The slot (0: the question; 1…: sub-questions in order). */
  slot: number;
  question: string;
  /** The planner's text: the rollout's action. */
  text: string;
  source: string;
  valid: boolean;
  problems: string[];
  /** The workflow executed: the plan when valid, the fallback when not. */
  executed: string;
  detail?: Record<string, unknown>;
}

/** A question being answered on one turn: the question itself (slot 0) or one sub-question. */
export interface TurnSlot {
  slot: number;
  turn: number;
  level: PlanLevel;
  question: string;
  /** Retrieval's query: the question, or QR's rewrite of it. */
  query: string;
  plan?: { text: string; source: string; detail?: Record<string, unknown> };
  /** Set by the validity gate: the workflow that runs and whether it is the fallback. */
  workflow?: Workflow;
  invalid?: string[];
  /** Executors of `workflow` already run. */
  cursor: number;
  passages: SearchHit[];
  answer?: string;
}

const mergeSlots = (a: Record<number, TurnSlot>, b: Record<number, TurnSlot>): Record<number, TurnSlot> => ({ ...a, ...b });

export const MaoAragState = Annotation.Root({
  question: Annotation<string>(),
  /** normal: one workflow on the question; serial/parallel: after QDS/QDP. */
  mode: last<'normal' | 'serial' | 'parallel'>(() => 'normal'),
  /** Planner turns used so far. */
  turn: last<number>(() => 0),
  /** The turn bound (settings.maxTurns), in state so the routers read it as they read the rest. */
  maxTurns: last<number>(() => 5),
  slots: Annotation<Record<number, TurnSlot>>({ reducer: mergeSlots, default: () => ({}) }),
  /** The slots whose workflows run now (several after QDP). */
  active: last<number[]>(() => []),
  /** QDS's drafts or QDP's sub-questions, in order (slot i + 1 answers draft i). */
  subQuestions: last<string[]>(() => []),
  /** The sub-question one parallel `sub_plan` branch plans (its Send payload). */
  branch: last<{ slot: number; question: string; turn: number } | null>(() => null),
  decisions: append<PlanDecision>(),
  answer: last<string>(() => ''),
  /** The planner turn at which the final answer was produced. */
  answeredAtTurn: last<number>(() => 0),
  /** A serial decomposition still had sub-questions when the turn bound stopped it. */
  turnBound: last<boolean>(() => false),
});

export type MaoAragStateType = typeof MaoAragState.State;
type State = MaoAragStateType;

/** What MAO-ARAG's nodes need at run time beside the run context: the planner of this workflow. */
export interface MaoAragRuntime {
  planner: WorkflowPlanner;
}
type Runtime = GraphRuntime<MaoAragRuntime>;

/** The executors the dispatcher can send a turn to, in the order it serves them when several slots wait. */
const STEP_EXECUTORS = ['QR', 'DS', 'R', 'AG'] as const satisfies readonly Executor[];
type StepExecutor = (typeof STEP_EXECUTORS)[number];

const nextStep = (slot: TurnSlot): Executor | undefined => slot.workflow?.[slot.cursor];
const activeSlots = (state: State): TurnSlot[] => state.active.map((s) => state.slots[s]).filter((s): s is TurnSlot => s !== undefined);

/** The sub-questions answered so far, in order. */
export function answeredSubQuestions(state: Pick<State, 'slots'>): SubAnswer[] {
  return Object.values(state.slots)
    .filter((s) => s.level === 'sub' && s.answer !== undefined)
    .sort((a, b) => a.slot - b.slot)
    .map((s) => ({ step: s.slot, subGoal: s.question, answer: s.answer ?? '' }));
}

/** Router after `validate` (the validity gate): an invalid plan never runs; a decomposition runs alone. */
function validityGate(state: State): 'invalid' | 'QDS' | 'QDP' | 'execute' {
  const slots = activeSlots(state);
  if (slots.some((s) => s.invalid && s.invalid.length > 0)) return 'invalid';
  const top = slots.length === 1 && slots[0]!.level === 'top' ? slots[0]!.workflow : undefined;
  if (top?.[0] === 'QDS') return 'QDS';
  if (top?.[0] === 'QDP') return 'QDP';
  return 'execute';
}

/** Router after `QDP`: one `sub_plan` branch per sub-question, planned in parallel. */
function parallelSubQuestions(state: State): Send[] {
  return state.active.map((slot) => new Send('sub_plan', { branch: { slot, question: state.slots[slot]!.question, turn: state.turn } }));
}

/**
 * Router after `dispatch`: the next executor some active slot waits for (QR, DS, R, AG); once
 * every active slot has run its workflow, where the run goes: the answer (one workflow on the
 * question), the next serial sub-question (turns left), or AS over the sub-answers.
 */
function nextExecutor(state: State): StepExecutor | 'answered' | 'next-sub-question' | 'summarise' {
  const waiting = activeSlots(state).map(nextStep).filter((e): e is Executor => e !== undefined);
  const executor = STEP_EXECUTORS.find((e) => waiting.includes(e));
  if (executor) return executor;
  if (state.mode === 'normal') return 'answered';
  if (state.mode === 'serial') {
    const next = activeSlots(state)[0]!.slot + 1;
    if (next <= state.subQuestions.length && state.turn < state.maxTurns) return 'next-sub-question';
  }
  return 'summarise';
}

/**
 * Builds the MAO-ARAG graph (mao-arag.md §3, Figure 2). Node names are the paper's agents:
 *   plan → validate —invalid→ fallback → dispatch
 *                   —QDS→ QDS → sub_plan → validate …          (serial: one sub-question per turn)
 *                   —QDP→ QDP ⇒ sub_plan ×n (parallel) → validate …
 *                   —execute→ dispatch
 *   dispatch —QR|R|DS|AG→ executor → dispatch  (each active turn runs its workflow in order)
 *            —answered→ final; —next-sub-question→ QDS_next → sub_plan; —summarise→ AS → final
 */
export function buildMaoAragGraph(settings: MaoAragSettings) {
  const plan = async (state: State, { ctx, planner }: Runtime) => {
    const turn = 1;
    const reply = await planner.plan({ question: state.question, level: 'top', turn }, ctx);
    const slot: TurnSlot = { slot: 0, turn, level: 'top', question: state.question, query: state.question, plan: reply, cursor: 0, passages: [] };
    return { turn, slots: { 0: slot }, active: [0] };
  };

  // A sub-question's turn: planned alone (serial) or as one of QDP's parallel branches.
  const subPlan = async (state: State, { ctx, planner }: Runtime) => {
    const target = state.branch ?? (() => {
      const slot = state.slots[state.active[0]!]!;
      return { slot: slot.slot, question: slot.question, turn: slot.turn };
    })();
    const reply = await planner.plan({ question: target.question, level: 'sub', turn: target.turn }, ctx);
    const slot: TurnSlot = { slot: target.slot, turn: target.turn, level: 'sub', question: target.question, query: target.question, plan: reply, cursor: 0, passages: [] };
    return { slots: { [target.slot]: slot } };
  };

  // The validity gate: the authors' is_valid_list on every plan of this turn.
  const validate = async (state: State, { ctx }: Runtime) => {
    const updates: Record<number, TurnSlot> = {};
    const decisions: PlanDecision[] = [];
    for (const slot of activeSlots(state)) {
      if (!slot.plan || slot.workflow) continue;
      const parsed = parsePlan(slot.plan.text);
      const problems = validityProblems(parsed.names, slot.level).map(describeProblem);
      const valid = problems.length === 0;
      const workflow = (valid ? parsed.names : FALLBACK_WORKFLOW) as Workflow;
      updates[slot.slot] = { ...slot, workflow, ...(valid ? {} : { invalid: problems }) };
      const decision: PlanDecision = {
        turn: slot.turn,
        level: slot.level,
        slot: slot.slot,
        question: slot.question,
        text: slot.plan.text,
        source: slot.plan.source,
        valid,
        problems,
        executed: workflowKey(workflow),
        ...(slot.plan.detail ? { detail: slot.plan.detail } : {}),
      };
      decisions.push(decision);
      ctx.decide('workflow', { turn: slot.turn, level: slot.level, slot: slot.slot, question: slot.question, workflow: valid ? workflowKey(workflow) : slot.plan.text, valid, problems, source: slot.plan.source, ...(slot.plan.detail ?? {}) });
    }
    return { slots: updates, decisions };
  };

  // An invalid plan is not executed: FP is charged (in the reward) and the fallback runs instead.
  const fallback = async (state: State, { ctx }: Runtime) => {
    const updates: Record<number, TurnSlot> = {};
    for (const slot of activeSlots(state)) {
      if (!slot.invalid || slot.invalid.length === 0) continue;
      ctx.decide('fallback', { turn: slot.turn, slot: slot.slot, planned: slot.plan?.text ?? '', problems: slot.invalid, runs: workflowKey(FALLBACK_WORKFLOW), formatPenalty: true });
      updates[slot.slot] = { ...slot, invalid: [] };
    }
    return { slots: updates };
  };

  const qds = async (state: State, { ctx }: Runtime) => {
    const drafts = await decomposeSerial(ctx, state.question, settings.maxSubQuestions);
    const turn = state.turn + 1;
    ctx.decide('sub-questions', { mode: 'serial', count: drafts.length, subQuestions: drafts });
    return { mode: 'serial' as const, subQuestions: drafts, turn, active: [1], slots: { 1: emptySlot(1, turn, drafts[0]!) } };
  };

  const qdp = async (state: State, { ctx }: Runtime) => {
    const subQuestions = await decomposeParallel(ctx, state.question, settings.maxSubQuestions);
    const turn = state.turn + 1;
    ctx.decide('sub-questions', { mode: 'parallel', count: subQuestions.length, subQuestions });
    const slots = Object.fromEntries(subQuestions.map((q, i) => [i + 1, emptySlot(i + 1, turn, q)]));
    return { mode: 'parallel' as const, subQuestions, turn, active: subQuestions.map((_, i) => i + 1), slots };
  };

  // QDS, between sub-questions: the next draft rewritten with the answers so far, planned again.
  const qdsNext = async (state: State, { ctx }: Runtime) => {
    const previous = activeSlots(state)[0]!;
    const next = previous.slot + 1;
    const draft = state.subQuestions[next - 1]!;
    const revised = await reviseSubQuestion(ctx, state.question, draft, answeredSubQuestions(state));
    const turn = state.turn + 1;
    ctx.decide('next-sub-question', { turn, draft, revised });
    return { turn, active: [next], slots: { [next]: emptySlot(next, turn, revised) } };
  };

  const dispatch = async () => ({});

  const step = (executor: StepExecutor) => async (state: State, { ctx }: Runtime) => {
    const waiting = activeSlots(state).filter((s) => nextStep(s) === executor);
    const earlier = state.mode === 'serial' ? answeredSubQuestions(state) : [];
    const retrieved = executor === 'R' ? await retrieveAll(ctx, waiting.map((slot) => ({ query: slot.query, turn: slot.turn })), settings.retrievalK) : [];
    const updated = await Promise.all(
      waiting.map(async (slot, i): Promise<TurnSlot> => {
        const advanced = { ...slot, cursor: slot.cursor + 1 };
        switch (executor) {
          case 'QR':
            return { ...advanced, query: await rewriteQuery(ctx, slot.question) };
          case 'R':
            return { ...advanced, passages: retrieved[i]! };
          case 'DS': {
            const { kept, indices } = await selectDocuments(ctx, slot.question, slot.passages);
            if (slot.passages.length > 0) ctx.decide('selected', { slot: slot.slot, kept: indices, of: slot.passages.length });
            return { ...advanced, passages: kept };
          }
          case 'AG': {
            const answer = await generateAnswer(ctx, slot.question, slot.passages, earlier);
            if (slot.level === 'top') ctx.draft(answer);
            return { ...advanced, answer };
          }
        }
      }),
    );
    const top = updated.find((s) => s.level === 'top' && s.answer !== undefined && executor === 'AG');
    return {
      slots: Object.fromEntries(updated.map((s) => [s.slot, s])),
      ...(top ? { answer: top.answer ?? '', answeredAtTurn: top.turn } : {}),
    };
  };

  const as = async (state: State, { ctx }: Runtime) => {
    const answered = answeredSubQuestions(state);
    const lastSlot = Math.max(0, ...answered.map((a) => a.step));
    const turnBound = state.mode === 'serial' && lastSlot < state.subQuestions.length;
    if (turnBound) ctx.decide('turn-bound', { turns: state.turn, maxTurns: settings.maxTurns, answered: answered.length, left: state.subQuestions.slice(lastSlot) });
    const answer = await summariseAnswers(ctx, state.question, answered);
    ctx.draft(answer);
    return { answer, answeredAtTurn: state.turn, turnBound };
  };

  const final = async (state: State, { ctx }: Runtime) => {
    ctx.decide('answer', { answer: state.answer, turn: state.answeredAtTurn, workflows: state.decisions.map((d) => `${d.turn}:${d.executed}`), ...(state.turnBound ? { turnBound: true } : {}) });
    return {};
  };

  return workflowGraph(MaoAragState)
    .withRuntime<MaoAragRuntime>()
    .node('plan', plan, { label: 'Planner' })
    .node('validate', validate, { label: 'validity gate' })
    .node('fallback', fallback, { label: `fallback (${workflowKey(FALLBACK_WORKFLOW)}, FP)` })
    .node('QDS', qds, { label: 'QDS (serial decomposition)' })
    .node('QDP', qdp, { label: 'QDP (parallel decomposition)' })
    .node('sub_plan', subPlan, { label: 'Planner (sub-question)', enter: (state) => (state.branch ? { slot: state.branch.slot, question: state.branch.question } : {}) })
    .node('QDS_next', qdsNext, { label: 'QDS: next sub-question with earlier answers' })
    .node('dispatch', dispatch, { label: 'next executor' })
    .node('QR', step('QR'), { label: 'QR (query rewrite)' })
    .node('R', step('R'), { label: 'R (retrieval)' })
    .node('DS', step('DS'), { label: 'DS (document selection)' })
    .node('AG', step('AG'), { label: 'AG (answer generation)' })
    .node('AS', as, { label: 'AS (answer summarisation)' })
    .node('final', final)
    .edge(START, 'plan')
    .edge('plan', 'validate')
    .route('validate', validityGate, { invalid: 'fallback', QDS: 'QDS', QDP: 'QDP', execute: 'dispatch' })
    .edge('fallback', 'dispatch')
    .edge('QDS', 'sub_plan')
    .fanOut('QDP', parallelSubQuestions, ['sub_plan'])
    .edge('sub_plan', 'validate')
    .route('dispatch', nextExecutor, { QR: 'QR', R: 'R', DS: 'DS', AG: 'AG', answered: 'final', 'next-sub-question': 'QDS_next', summarise: 'AS' })
    .edge('QR', 'dispatch')
    .edge('R', 'dispatch')
    .edge('DS', 'dispatch')
    .edge('AG', 'dispatch')
    .edge('QDS_next', 'sub_plan')
    .edge('AS', 'final')
    .edge('final', END)
    .compile();
}

function emptySlot(slot: number, turn: number, question: string): TurnSlot {
  return { slot, turn, level: 'sub', question, query: question, cursor: 0, passages: [] };
}
