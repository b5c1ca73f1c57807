import type { RunContext, SearchHit } from '@multihop/core';
import { promiseActors } from '@multihop/engine-xstate';
import { assign, setup } from 'xstate';
import { buildCandidatePool } from './agents/candidatePool';
import { generateAnswer } from './agents/Generator';
import { rewriteQuery } from './agents/QueryRewriter';
import { selectDocuments } from './agents/Selector';
import { generatorPrompt, queryRewriterPrompt, selectorPrompt, type CandidateDocument } from './prompts';
import { answerWords, MMOA_PENALTIES, rewriterViolation, type SelectorReading } from './rewards';
import type { MmoaRagSettings } from './settings';
import type { MmoaAgent, MmoaVariant } from './variants';

export type { MmoaRagSettings };

/** One agent's turn: its observation (the prompt's variables), its action (the reply) and its penalty. */
export interface AgentTurn {
  agent: MmoaAgent;
  role: string;
  promptId: string;
  promptVersion: string;
  /** The prompt's variables: `prompt.render(vars)` gives the messages the agent saw. */
  vars: Record<string, unknown>;
  /** The reply exactly as written. */
  text: string;
  /** 0, or the agent's penalty (MMOA_PENALTIES) when a check failed. */
  penalty: number;
  /** Which check failed. */
  violation?: string;
}

/** The machine's context: plain JSON, so a persisted snapshot captures a run whole. */
export interface MmoaRagContext {
  question: string;
  variant: MmoaVariant;
  settings: MmoaRagSettings;
  /** The Query Rewriter's sub-questions as written (the question itself without a rewriter). */
  subQuestions: string[];
  /** The sub-questions searched: the first maxSubQuestions (the question itself when the rewriter wrote more than twice that, as the authors' trainer does past 8). */
  searched: string[];
  /** The Selector's candidates, Document0…DocumentK−1 in this order. */
  candidates: CandidateDocument[];
  selection?: SelectorReading & { text: string };
  /** What the Generator reads: the selected candidates (every candidate without a Selector). */
  documents: CandidateDocument[];
  /** The Generator's reply as written, and the answer (its `*` removed). */
  reply: string;
  answer: string;
  turns: AgentTurn[];
  error?: { message: string };
}

/** What the actors need at run time: supplied per run with `machine.provide()`, never in the (persisted) context. */
export interface MmoaRagRuntime {
  ctx: RunContext;
  /** Extra prompt variables per role (rollouts pass `sample` to draw episodes). */
  varsFor?: (role: string) => Record<string, unknown>;
}

export const MMOA_GUARDS = ['tooManySubQuestions', 'subQuestionsTooLong', 'selectionMalformed', 'selectionRepeatsId', 'answerTooLong'] as const;

/** The sub-questions a rewrite leads to searching (see MmoaRagContext.searched). */
export function searchedSubQuestions(question: string, subQuestions: readonly string[], maxSubQuestions: number): string[] {
  if (subQuestions.length > 2 * maxSubQuestions) return [question];
  return subQuestions.slice(0, maxSubQuestions);
}

const summary = (docs: readonly CandidateDocument[]) => docs.map((d, i) => ({ document: `Document${i}`, id: d.id, title: d.title }));

/**
 * MMOA-RAG's invoked actors, one per agent plus the fixed Retriever. Each agent's actor records
 * its turn as a `decision` event (agent, observation, action, penalty); the machine's guards
 * make the same checks, so the chart shows each penalty as a guard.
 */
export const mmoaRagActors = promiseActors<MmoaRagRuntime>()({
  queryRewriter: async (input: { question: string; settings: MmoaRagSettings }, { ctx, varsFor }): Promise<AgentTurn & { subQuestions: string[] }> =>
    ctx.node('rewrite', async () => {
      const turn = await rewriteQuery(ctx.model, input.question, input.settings.maxSubQuestions, varsFor?.(queryRewriterPrompt.role) ?? {});
      const violation = rewriterViolation(turn.subQuestions, input.settings);
      const penalty = violation ? MMOA_PENALTIES['query-rewriter'] : 0;
      ctx.decide(violation ? 'penalty' : 'no-penalty', {
        agent: 'query-rewriter',
        observation: { question: input.question },
        action: turn.text,
        subQuestions: turn.subQuestions,
        penalty,
        ...(violation ? { violation } : {}),
      });
      return {
        agent: 'query-rewriter' as const,
        role: queryRewriterPrompt.role,
        promptId: queryRewriterPrompt.id,
        promptVersion: queryRewriterPrompt.version,
        vars: turn.vars,
        text: turn.text,
        penalty,
        ...(violation ? { violation } : {}),
        subQuestions: turn.subQuestions,
      };
    }),
  retriever: async (input: { searched: string[]; settings: MmoaRagSettings }, { ctx }): Promise<CandidateDocument[]> =>
    ctx.node('retrieve', async () => {
      // The Retriever is fixed (not an agent): every sub-question is searched at once, one hop of the run's budget (core's maxHops).
      ctx.budget.chargeHop();
      const rankings: SearchHit[][] = await Promise.all(input.searched.map((q) => ctx.retriever.search(q, { k: input.settings.topK })));
      const pool = buildCandidatePool(rankings, input.settings.candidates);
      ctx.decide('candidates', { searched: input.searched, candidates: summary(pool) });
      return pool;
    }),
  selector: async (input: { question: string; candidates: CandidateDocument[] }, { ctx, varsFor }): Promise<AgentTurn & { reading: SelectorReading }> =>
    ctx.node('select', async () => {
      const turn = await selectDocuments(ctx.model, input.question, input.candidates, varsFor?.(selectorPrompt.role) ?? {});
      const violation = turn.malformed ? 'malformed' : turn.repeated ? 'repeated-id' : undefined;
      const penalty = violation ? MMOA_PENALTIES.selector : 0;
      ctx.decide(violation ? 'penalty' : 'no-penalty', {
        agent: 'selector',
        observation: { question: input.question, candidates: summary(input.candidates) },
        action: turn.text,
        selected: turn.selected.map((i) => `Document${i}`),
        penalty,
        ...(violation ? { violation } : {}),
      });
      return {
        agent: 'selector' as const,
        role: selectorPrompt.role,
        promptId: selectorPrompt.id,
        promptVersion: selectorPrompt.version,
        vars: turn.vars,
        text: turn.text,
        penalty,
        ...(violation ? { violation } : {}),
        reading: { selected: turn.selected, malformed: turn.malformed, repeated: turn.repeated },
      };
    }),
  generator: async (input: { question: string; documents: CandidateDocument[]; maxAnswerWords: number }, { ctx, varsFor }): Promise<AgentTurn & { answer: string }> =>
    ctx.node('generate', async () => {
      // The run's evidence is what the Generator reads.
      ctx.addEvidence(
        input.documents.map((d, i) => ({ id: d.id, title: d.title, text: d.text, rank: i + 1, score: 0 })),
        { query: input.question },
      );
      const turn = await generateAnswer(ctx.model, input.question, input.documents, varsFor?.(generatorPrompt.role) ?? {});
      const words = answerWords(turn.text);
      const violation = words > input.maxAnswerWords ? 'too-long' : undefined;
      const penalty = violation ? MMOA_PENALTIES.generator : 0;
      ctx.draft(turn.answer);
      ctx.decide(violation ? 'penalty' : 'no-penalty', {
        agent: 'generator',
        observation: { question: input.question, documents: summary(input.documents) },
        action: turn.text,
        words,
        penalty,
        ...(violation ? { violation } : {}),
      });
      return {
        agent: 'generator' as const,
        role: generatorPrompt.role,
        promptId: generatorPrompt.id,
        promptVersion: generatorPrompt.version,
        vars: turn.vars,
        text: turn.text,
        penalty,
        ...(violation ? { violation } : {}),
        answer: turn.answer,
      };
    }),
});

type TurnOutput = AgentTurn & Record<string, unknown>;
const outputOf = (event: unknown) => (event as { output: TurnOutput }).output;
const turnOf = ({ agent, role, promptId, promptVersion, vars, text, violation }: TurnOutput): AgentTurn => ({
  agent,
  role,
  promptId,
  promptVersion,
  vars,
  text,
  // The penalty is set by the penalty state the guards lead to, not by the actor.
  penalty: 0,
  ...(violation ? { violation } : {}),
});
const penalised = (context: MmoaRagContext, agent: MmoaAgent): AgentTurn[] =>
  context.turns.map((t) => (t.agent === agent ? { ...t, penalty: MMOA_PENALTIES[agent] } : t));

/**
 * Types, actors, guards and actions of every MMOA-RAG machine, named once so the chart shows
 * them. Each penalty of the paper is a guard: tooManySubQuestions and subQuestionsTooLong (QR),
 * selectionMalformed and selectionRepeatsId (S), answerTooLong (G).
 */
const mmoaSetup = setup({
  types: { context: {} as MmoaRagContext, input: {} as { question: string }, output: {} as MmoaRagContext },
  actors: mmoaRagActors.logic,
  guards: {
    tooManySubQuestions: ({ context }) => context.subQuestions.length > context.settings.maxSubQuestions,
    subQuestionsTooLong: ({ context }) => rewriterViolation(context.subQuestions, context.settings) === 'sub-questions-too-long',
    selectionMalformed: ({ context }) => context.selection?.malformed === true,
    selectionRepeatsId: ({ context }) => context.selection?.repeated === true,
    answerTooLong: ({ context }) => answerWords(context.reply) > context.settings.maxAnswerWords,
  },
  actions: {
    penaliseQueryRewriter: assign(({ context }) => ({ turns: penalised(context, 'query-rewriter') })),
    penaliseSelector: assign(({ context }) => ({ turns: penalised(context, 'selector') })),
    penaliseGenerator: assign(({ context }) => ({ turns: penalised(context, 'generator') })),
    storeError: assign(({ event }) => ({ error: { message: errorMessage((event as { error?: unknown }).error) } })),
  },
});

/**
 * The MMOA-RAG machine (XState v5) for one variant; defined once, run many times:
 *
 *   rewrite → checkRewrite —tooManySubQuestions | subQuestionsTooLong→ rewriterPenalty → retrieve
 *                          —else→ retrieve
 *   retrieve → select → checkSelection —selectionMalformed | selectionRepeatsId→ selectorPenalty → generate
 *                                      —else→ generate
 *   generate → checkAnswer —answerTooLong→ generatorPenalty → done; —else→ done
 *
 * `no-rewriter` (S+G) starts at retrieve with the question as the only search; `no-selector`
 * (QR+G) goes from retrieve to generate with every candidate. An actor's failure goes to `failed`.
 */
export function createMmoaRagMachine(variant: MmoaVariant, settings: MmoaRagSettings) {
  const rewriter = variant !== 'no-rewriter';
  const selector = variant !== 'no-selector';
  return mmoaSetup.createMachine({
    id: 'mmoa-rag',
    initial: rewriter ? 'rewrite' : 'retrieve',
    context: ({ input }) => ({
      question: input.question,
      variant,
      settings,
      subQuestions: rewriter ? [] : [input.question],
      searched: rewriter ? [] : [input.question],
      candidates: [],
      documents: [],
      reply: '',
      answer: '',
      turns: [],
    }),
    output: ({ context }) => context,
    states: {
      ...(rewriter
        ? {
            rewrite: {
              invoke: {
                id: 'queryRewriter',
                src: 'queryRewriter',
                input: ({ context }) => ({ question: context.question, settings: context.settings }),
                onDone: {
                  target: 'checkRewrite',
                  actions: assign(({ context, event }) => ({
                    subQuestions: event.output.subQuestions,
                    searched: searchedSubQuestions(context.question, event.output.subQuestions, context.settings.maxSubQuestions),
                    turns: [...context.turns, turnOf(outputOf(event))],
                  })),
                },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
            checkRewrite: {
              always: [
                { guard: 'tooManySubQuestions', target: 'rewriterPenalty' },
                { guard: 'subQuestionsTooLong', target: 'rewriterPenalty' },
                { target: 'retrieve' },
              ],
            },
            rewriterPenalty: { entry: 'penaliseQueryRewriter', always: { target: 'retrieve' } },
          }
        : {}),
      retrieve: {
        invoke: {
          id: 'retriever',
          src: 'retriever',
          input: ({ context }) => ({ searched: context.searched, settings: context.settings }),
          onDone: {
            target: selector ? 'select' : 'generate',
            actions: assign(({ event }) => ({ candidates: event.output, ...(selector ? {} : { documents: event.output }) })),
          },
          onError: { target: 'failed', actions: 'storeError' },
        },
      },
      ...(selector
        ? {
            select: {
              invoke: {
                id: 'selector',
                src: 'selector',
                input: ({ context }: { context: MmoaRagContext }) => ({ question: context.question, candidates: context.candidates }),
                onDone: {
                  target: 'checkSelection',
                  actions: assign(({ context, event }: { context: MmoaRagContext; event: unknown }) => {
                    const output = outputOf(event);
                    const reading = output['reading'] as SelectorReading;
                    return {
                      selection: { ...reading, text: output.text },
                      documents: reading.selected.map((i) => context.candidates[i]!),
                      turns: [...context.turns, turnOf(output)],
                    };
                  }),
                },
                onError: { target: 'failed', actions: 'storeError' },
              },
            },
            checkSelection: {
              always: [
                { guard: 'selectionMalformed', target: 'selectorPenalty' },
                { guard: 'selectionRepeatsId', target: 'selectorPenalty' },
                { target: 'generate' },
              ],
            },
            selectorPenalty: { entry: 'penaliseSelector', always: { target: 'generate' } },
          }
        : {}),
      generate: {
        invoke: {
          id: 'generator',
          src: 'generator',
          input: ({ context }) => ({ question: context.question, documents: context.documents, maxAnswerWords: context.settings.maxAnswerWords }),
          onDone: {
            target: 'checkAnswer',
            actions: assign(({ context, event }) => ({
              reply: event.output.text,
              answer: event.output.answer,
              turns: [...context.turns, turnOf(outputOf(event))],
            })),
          },
          onError: { target: 'failed', actions: 'storeError' },
        },
      },
      checkAnswer: {
        always: [{ guard: 'answerTooLong', target: 'generatorPenalty' }, { target: 'done' }],
      },
      generatorPenalty: { entry: 'penaliseGenerator', always: { target: 'done' } },
      done: { type: 'final' },
      failed: { type: 'final' },
    },
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type MmoaRagMachine = ReturnType<typeof createMmoaRagMachine>;
