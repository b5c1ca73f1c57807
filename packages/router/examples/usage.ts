import assert from 'node:assert/strict';
import { toMermaid, type RetrieverPort } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { createRouterWorkflow, manifest } from '@multihop/router';
import { offlineHandlers } from '@multihop/router/offline';

// Two passages stand in for a corpus; with @multihop/retriever, pass a LanceDB retriever instead.
const passages = [
  { id: 'p1', title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 comedy film starring Shirley Temple as Corliss Archer.' },
  { id: 'p2', title: 'Shirley Temple', text: 'Shirley Temple Black was an American actress who served as Chief of Protocol of the United States.' },
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

async function main(): Promise<void> {
  const workflow = createRouterWorkflow({ topK: 2 });
  const result = await workflow.run(
    { id: 'q1', text: 'Which actress played Corliss Archer in Kiss and Tell?' },
    { model: offlineModel({ handlers: offlineHandlers }), retriever },
  );
  console.log(result.answer, result.evidenceIds);
  console.log(toMermaid(workflow.chart()));

  assert.equal(result.status, 'ok');
  assert.deepEqual(result.evidenceIds.sort(), ['p1', 'p2']);
  // Every edge the run took is a `transition` event, named as the chart names it.
  const chart = workflow.chart();
  for (const event of result.trace.filter((e) => e.kind === 'transition')) {
    assert.ok(chart.edges.some((e) => e.from === event.data['from'] && e.to === event.data['to']));
  }
  assert.equal(manifest.workflows[0]?.id, 'router');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
