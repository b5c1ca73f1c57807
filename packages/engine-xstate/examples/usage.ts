import assert from 'node:assert/strict';
import { createModel, createScriptedProvider, toMermaid, type RetrieverPort, type RunContext } from '@multihop/core';
import { defineXStateWorkflow, promiseActors } from '@multihop/engine-xstate';
import { assign, setup } from 'xstate';
import { z } from 'zod';

const readerPrompt = {
  id: 'demo.reader',
  role: 'reader',
  version: '1',
  schema: z.object({ answer: z.string(), done: z.boolean() }),
  render: (vars: Record<string, unknown>) => [{ role: 'user' as const, content: `${vars['question']}\n${vars['passages']}` }],
};

// 1. The method's actors: plain async functions of (input, runtime). The runtime is the run's
//    traced, metered RunContext; nothing here holds one yet.
const actors = promiseActors<{ ctx: RunContext }>()({
  search: async (input: { query: string }, { ctx }) =>
    ctx.node('retrieve', async () => {
      const hits = await ctx.retriever.search(input.query, { k: 2 });
      ctx.addEvidence(hits, { query: input.query });
      return hits.map((h) => h.text);
    }),
  reader: async (input: { question: string; passages: string[] }, { ctx }) =>
    ctx.node('read', async () => {
      const { output } = await ctx.model.call({ prompt: readerPrompt, vars: { question: input.question, passages: input.passages.join('\n') } });
      ctx.draft(output.answer);
      return output;
    }),
});

// 2. The machine, defined once: named actors and guards, so the chart shows them.
const machine = setup({
  types: { input: {} as { question: string }, context: {} as { question: string; query: string; passages: string[]; answer: string; done: boolean; hops: number } },
  actors: actors.logic,
  guards: { answered: ({ context }) => context.done, hopsLeft: ({ context }) => context.hops < 3 },
}).createMachine({
  id: 'readLoop',
  initial: 'retrieve',
  context: ({ input }) => ({ question: input.question, query: input.question, passages: [], answer: '', done: false, hops: 0 }),
  states: {
    retrieve: {
      invoke: {
        src: 'search',
        input: ({ context }) => ({ query: context.query }),
        onDone: { target: 'read', actions: assign(({ context, event }) => ({ passages: event.output, hops: context.hops + 1 })) },
      },
    },
    read: {
      invoke: {
        src: 'reader',
        input: ({ context }) => ({ question: context.question, passages: context.passages }),
        onDone: { target: 'decide', actions: assign(({ event }) => ({ answer: event.output.answer, done: event.output.done })) },
      },
    },
    decide: {
      always: [
        { guard: 'answered', target: 'done' },
        { guard: 'hopsLeft', target: 'retrieve', actions: assign(({ context }) => ({ query: `${context.answer} government position` })) },
        { target: 'done' },
      ],
    },
    done: { type: 'final' },
  },
});

// 3. The workflow: each run provides the actors bound to its own context. `pauseWhen` stops a
//    run at a state and hands back its snapshot; `resume` finishes it in a new actor.
const readLoop = (pauseWhen?: (state: string, context: { hops: number }) => boolean) =>
  defineXStateWorkflow({
    id: 'read-loop',
    title: 'Retrieve, read, repeat',
    paper: 'example',
    machine,
    input: (query) => ({ question: query.text }),
    implementations: (ctx) => ({ actors: actors.bind({ ctx }) }),
    ...(pauseWhen ? { pauseWhen } : {}),
    output: ({ context }) => ({ answer: context.answer, data: { hops: context.hops } }),
  });

const passages = [
  { id: 'p1', title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 comedy film starring Shirley Temple as Corliss Archer.' },
  { id: 'p2', title: 'Shirley Temple', text: 'Shirley Temple Black was an actress who later served as Chief of Protocol of the United States.' },
];
const retriever: RetrieverPort = {
  async search(query, options = {}) {
    const words = new Set(query.toLowerCase().split(/\W+/));
    return passages
      .map((p) => ({ ...p, score: p.text.toLowerCase().split(/\W+/).filter((w) => words.has(w)).length }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.k ?? 2)
      .map((p, i) => ({ ...p, rank: i + 1 }));
  },
};

const model = () =>
  createModel({
    provider: createScriptedProvider({
      replies: { reader: [JSON.stringify({ answer: 'Shirley Temple', done: false }), JSON.stringify({ answer: 'Chief of Protocol', done: true })] },
    }),
  });
const question = { id: 'q1', text: 'What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?' };

async function main(): Promise<void> {
  const result = await readLoop().run(question, { model: model(), retriever });

  // Every transition the machine took is a `transition` event at its source state, named as the chart names it.
  const moves = result.trace.filter((e) => e.kind === 'transition').map((e) => e.data);
  console.log(result.answer, moves);
  console.log(toMermaid(readLoop().chart()));

  assert.equal(result.answer, 'Chief of Protocol');
  assert.deepEqual(moves, [
    { from: '__start__', to: 'retrieve' },
    { from: 'retrieve', to: 'read', label: 'done: search' },
    { from: 'read', to: 'decide', label: 'done: reader' },
    { from: 'decide', to: 'retrieve', guard: 'hopsLeft', label: 'always' },
    { from: 'retrieve', to: 'read', label: 'done: search' },
    { from: 'read', to: 'decide', label: 'done: reader' },
    { from: 'decide', to: 'done', guard: 'answered', label: 'always' },
  ]);
  const chart = readLoop().chart();
  for (const move of moves) assert.ok(chart.edges.some((e) => e.from === move['from'] && e.to === move['to'] && e.guard === move['guard']));

  // Pause as the second hop starts retrieving; the snapshot is plain JSON, so it can wait on disk.
  const paused = await readLoop((state, context) => state === 'retrieve' && context.hops === 1).run(question, { model: model(), retriever });
  assert.equal(paused.stopReason, 'paused');
  const snapshot = JSON.parse(JSON.stringify(paused.data?.['snapshot']));
  const resumed = await readLoop().resume(question, snapshot, {
    model: createModel({ provider: createScriptedProvider({ replies: { reader: [JSON.stringify({ answer: 'Chief of Protocol', done: true })] } }) }),
    retriever,
  });
  assert.equal(resumed.answer, result.answer);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
