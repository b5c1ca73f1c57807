import assert from 'node:assert/strict';
import { createModel, createScriptedProvider, type RetrieverPort } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { createMmoaRagWorkflow, manifest, readSelection } from '@multihop/mmoa-rag';
import { offlineHandlers } from '@multihop/mmoa-rag/offline';

// Three passages stand in for a corpus; with @multihop/retriever, pass a LanceDB retriever instead.
const passages = [
  { id: 'p1', title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 comedy film starring Shirley Temple as Corliss Archer.' },
  { id: 'p2', title: 'Shirley Temple', text: 'Shirley Temple Black was an American actress who served as Chief of Protocol of the United States.' },
  { id: 'p3', title: 'Lord High Treasurer', text: 'The Lord High Treasurer was an English government position.' },
];
const retriever: RetrieverPort = {
  async search(query, options = {}) {
    const words = new Set(query.toLowerCase().split(/\W+/));
    return passages
      .map((p) => ({ ...p, score: `${p.title} ${p.text}`.toLowerCase().split(/\W+/).filter((w) => words.has(w)).length }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.k ?? 5)
      .map((p, i) => ({ ...p, rank: i + 1 }));
  },
};
const question = { id: 'q1', text: 'What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?' };

async function main(): Promise<void> {
  // The three agents answered by the offline model (a lexical stand-in, not a language model).
  const workflow = createMmoaRagWorkflow('full', { candidates: 3 });
  const result = await workflow.run(question, { model: offlineModel({ handlers: offlineHandlers }), retriever });
  console.log(result.answer, result.data?.['subQuestions'], result.data?.['selection']);
  assert.equal(result.status, 'ok');

  // Scripted agents force the penalties: five sub-questions (QR −0.5), a repeated ID (S −1).
  const provider = createScriptedProvider({
    replies: {
      'mmoa-rag-query-rewriter': ['Who played Corliss Archer?\nIn which film?\nWho is Shirley Temple?\nWhat positions did she hold?\nWhen?'],
      'mmoa-rag-selector': ['Document1,Document1'],
      'mmoa-rag-generator': ['Chief of Protocol'],
    },
  });
  const penalised = await workflow.run(question, { model: createModel({ provider }), retriever });
  const turns = penalised.data?.['turns'] as Array<{ agent: string; penalty: number }>;
  assert.deepEqual(turns.map((t) => [t.agent, t.penalty]), [['query-rewriter', -0.5], ['selector', -1], ['generator', 0]]);
  assert.deepEqual(readSelection('Document0,Document2', 3), { selected: [0, 2], malformed: false, repeated: false });

  // Every penalty check is a guard of the chart.
  const guards = workflow.chart().guards;
  for (const guard of ['tooManySubQuestions', 'selectionMalformed', 'selectionRepeatsId', 'answerTooLong']) assert.ok(guards.includes(guard), guard);
  assert.deepEqual(manifest.workflows.map((w) => w.id), ['mmoa-rag', 'mmoa-rag-no-rewriter', 'mmoa-rag-no-selector']);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
