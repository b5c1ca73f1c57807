import assert from 'node:assert/strict';
import { createModel, createScriptedProvider, defineWorkflow, toMermaid, type RetrieverPort } from '@multihop/core';
import { z } from 'zod';

// A prompt: anything with id, role, version, schema and render() works (@multihop/prompts makes them).
const answerPrompt = {
  id: 'demo.answer',
  role: 'writer',
  version: '1',
  schema: z.object({ answer: z.string() }),
  render: (vars: Record<string, unknown>) => [{ role: 'user' as const, content: `${vars['question']}\n${vars['context']}` }],
};

// A workflow: a chart plus a body that works through the traced, metered, budgeted context.
const retrieveThenAnswer = defineWorkflow({
  id: 'retrieve-then-answer',
  title: 'Retrieve, then answer',
  paper: 'example',
  chart: () => ({
    id: 'retrieve-then-answer',
    engine: 'plain',
    guards: [],
    nodes: [
      { id: 'retrieve', kind: 'step' },
      { id: 'answer', kind: 'step' },
    ],
    edges: [{ from: 'retrieve', to: 'answer' }],
  }),
  async execute(question, ctx) {
    const hits = await ctx.node('retrieve', () => ctx.retriever.search(question.text, { k: 2 }));
    ctx.addEvidence(hits, { query: question.text });
    const { output } = await ctx.node('answer', () =>
      ctx.model.call({ prompt: answerPrompt, vars: { question: question.text, context: hits.map((h) => h.text).join('\n') } }),
    );
    return { answer: output.answer };
  },
});

// Stand-ins: a scripted model (where a network model would be) and a two-passage retriever.
const model = createModel({ provider: createScriptedProvider({ replies: { writer: ['{"answer": "Chief of Protocol"}'] } }) });
const retriever: RetrieverPort = {
  search: async () => [
    { id: 'p1', title: 'Shirley Temple', text: 'She served as Chief of Protocol of the United States.', rank: 1, score: 2 },
    { id: 'p2', title: 'Kiss and Tell', text: 'A 1945 film starring Shirley Temple as Corliss Archer.', rank: 2, score: 1 },
  ],
};

async function main(): Promise<void> {
  const question = {
    id: 'q1',
    text: 'What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?',
    answer: 'Chief of Protocol',
    aliases: [],
    supportingIds: ['p1', 'p2'],
  };
  const result = await retrieveThenAnswer.run(question, { model, retriever, budget: { maxLlmCalls: 5 } });
  console.log(result.answer, result.evidenceIds, result.usage.byRole);

  assert.equal(result.status, 'ok');
  assert.equal(result.answer, 'Chief of Protocol');
  assert.deepEqual(result.evidenceIds, ['p1', 'p2']);
  assert.deepEqual(
    result.trace.map((e) => `${e.node}:${e.kind}`),
    ['retrieve:enter', 'retrieve:retrieve', 'retrieve:exit', 'answer:enter', 'answer:llm', 'answer:exit'],
  );
  assert.equal(result.usage.byRole['writer']?.calls, 1);
  assert.match(toMermaid(retrieveThenAnswer.chart()), /n0 --> n1/);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
