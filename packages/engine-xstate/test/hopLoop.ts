import type { Chart, PromptTemplate, RetrieverPort, RunContext, TraceEvent, TransitionData } from '@multihop/core';
import { overlapRetriever as sharedOverlapRetriever } from '@multihop/conformance';
import { hotpotDevSample } from '@multihop/testing';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { promiseActors } from '../src/promiseActors';

/** Real HotpotQA dev questions with their own paragraphs. */
export function hotpotQuestions(n: number) {
  const sample = hotpotDevSample(n);
  if (sample.length < n) throw new Error('shared HotpotQA dev sample is missing');
  return sample;
}

/** Term-overlap search over one question's real paragraphs, three hits by default (this package sits below @multihop/retriever). */
export const overlapRetriever = (pool: ReadonlyArray<{ id: string; title: string; text: string }>): RetrieverPort => sharedOverlapRetriever(pool, 3);

const reasonSchema = z.object({ answer: z.string(), done: z.boolean() });
export const reasonPrompt: PromptTemplate<z.infer<typeof reasonSchema>> = {
  id: 'hop-loop.reason',
  role: 'reasoner',
  version: '1',
  schema: reasonSchema,
  render: (vars) => [{ role: 'user', content: `${String(vars['question'])}\n${String(vars['passages'])}` }],
};
export const reply = (answer: string, done: boolean) => JSON.stringify({ answer, done });

export interface HopContext {
  question: string;
  query: string;
  hops: number;
  maxHops: number;
  passages: Array<{ id: string; title: string; text: string }>;
  answer: string;
  done: boolean;
  error?: string;
}

/** The loop's actors: plain async functions of (input, runtime). */
export const hopActors = promiseActors<{ ctx: RunContext }>()({
  search: async (input: { query: string; hop: number }, { ctx }) =>
    ctx.node(
      'retrieve',
      async () => {
        ctx.budget.chargeHop();
        const hits = await ctx.retriever.search(input.query, { k: 3 });
        ctx.addEvidence(hits, { query: input.query, hop: input.hop });
        return hits.map((h) => ({ id: h.id, title: h.title, text: h.text }));
      },
      { query: input.query },
    ),
  reasoner: async (input: { question: string; passages: HopContext['passages'] }, { ctx }) =>
    ctx.node('reason', async () => {
      const { output } = await ctx.model.call({ prompt: reasonPrompt, vars: { question: input.question, passages: input.passages.map((p) => p.text).join('\n') } });
      ctx.draft(output.answer);
      return output;
    }),
});

/**
 * A retrieve → reason → decide loop over real paragraphs, the smallest machine shaped like the
 * methods': invoked actors, a guarded eventless choice with an `else`, and a failure state.
 * Built once at module load, with no runtime in it.
 */
export const hopLoop = setup({
  types: { context: {} as HopContext, input: {} as { question: string; maxHops?: number }, output: {} as { answer: string; hops: number } },
  actors: hopActors.logic,
  guards: {
    answered: ({ context }) => context.done && context.answer !== '',
    hopsLeft: ({ context }) => context.hops < context.maxHops,
  },
  actions: {
    storeError: assign(({ event }) => ({ error: String((event as { error?: unknown }).error) })),
  },
}).createMachine({
  id: 'hopLoop',
  initial: 'retrieve',
  context: ({ input }) => ({ question: input.question, query: input.question, hops: 0, maxHops: input.maxHops ?? 3, passages: [], answer: '', done: false }),
  output: ({ context }) => ({ answer: context.answer, hops: context.hops }),
  states: {
    retrieve: {
      invoke: {
        src: 'search',
        input: ({ context }) => ({ query: context.query, hop: context.hops + 1 }),
        onDone: { target: 'reason', actions: assign(({ context, event }) => ({ passages: event.output, hops: context.hops + 1 })) },
        onError: { target: 'failed', actions: 'storeError' },
      },
    },
    reason: {
      invoke: {
        src: 'reasoner',
        input: ({ context }) => ({ question: context.question, passages: context.passages }),
        onDone: { target: 'decide', actions: assign(({ event }) => ({ answer: event.output.answer, done: event.output.done })) },
        onError: { target: 'failed', actions: 'storeError' },
      },
    },
    decide: {
      always: [
        { guard: 'answered', target: 'done' },
        { guard: 'hopsLeft', target: 'retrieve', actions: assign(({ context }) => ({ query: `${context.question} ${context.answer}` })) },
        { target: 'done' },
      ],
    },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
});

/** The `transition` events of a run, as data. */
export function transitionsOf(trace: ReadonlyArray<Pick<TraceEvent, 'kind' | 'data'>>): TransitionData[] {
  return trace.filter((e) => e.kind === 'transition').map((e) => e.data as unknown as TransitionData);
}

/**
 * Why `transitions` is not a walk on `chart`: each must be one of its edges (same ends, guard
 * and label) emitted at its source node, and each must leave where the one before arrived (or
 * from an enclosing state of it). Empty when it is a walk.
 */
export function walkProblems(chart: Chart, trace: ReadonlyArray<Pick<TraceEvent, 'node' | 'kind' | 'data'>>): string[] {
  const problems: string[] = [];
  const parent = new Map(chart.nodes.map((n) => [n.id, n.parent]));
  const events = trace.filter((e) => e.kind === 'transition');
  let at: string | undefined;
  for (const event of events) {
    const t = event.data as unknown as TransitionData;
    if (event.node !== t.from) problems.push(`${t.from} → ${t.to} emitted at ${event.node}`);
    const onChart = chart.edges.some((e) => e.from === t.from && e.to === t.to && e.guard === t.guard && (e.label ?? undefined) === t.label);
    if (!onChart) problems.push(`${t.from} → ${t.to} (${t.guard ?? '-'}, ${t.label ?? '-'}) is not a chart edge`);
    if (t.guard !== undefined && !chart.guards.includes(t.guard)) problems.push(`guard ${t.guard} is not a chart guard`);
    if (at !== undefined) {
      let from: string | undefined = at;
      while (from !== undefined && from !== t.from) from = parent.get(from);
      if (from === undefined) problems.push(`${t.from} → ${t.to} does not leave from ${at}`);
    }
    at = t.to;
  }
  return problems;
}
