import assert from 'node:assert/strict';
import { routeChoice, toMermaid, totalTokens, type RetrieverPort, type WorkflowContext } from '@multihop/core';
import { manifest as baselines } from '@multihop/baselines/manifest';
import { offlineHandlers } from '@multihop/baselines/offline';
import { offlineModel } from '@multihop/offline-model';
import { createRouterWorkflow } from '@multihop/router';

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

// The router runs whichever installed workflow it picks: here, the five baselines.
const context: WorkflowContext = {
  workflowIds: () => baselines.workflows.map((w) => w.id),
  workflow: (id) => baselines.workflows.find((w) => w.id === id)!.create(),
};

async function main(): Promise<void> {
  // The router file this package ships (trained on the offline model's evals) and its λ;
  // { lambda: 0.5 } would favour cheap workflows, { file } loads one trained with `multihop train router`.
  const router = createRouterWorkflow({}, context);
  const result = await router.run(
    { id: 'q1', text: 'Which actress played Corliss Archer in Kiss and Tell?' },
    { model: offlineModel({ handlers: offlineHandlers }), retriever },
  );
  const route = result.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
  console.log(`routed to ${String(route.data['choice'])}:`, result.answer);
  console.log(route.data['predictions']);
  console.log(toMermaid(router.chart()));

  assert.equal(result.status, 'ok');
  // Only installed workflows are candidates. The shipped file routes among the Pareto front of
  // those (no other as good and as cheap on its training questions), each a `workflow` node of the chart.
  assert.deepEqual(router.candidates?.slice().sort(), ['cot', 'direct', 'ircot', 'react', 'single-turn-rag']);
  const routedAmong = router.chart().nodes.filter((n) => n.kind === 'workflow').map((n) => n.workflow!);
  assert.ok(routedAmong.every((w) => router.candidates!.includes(w)) && routedAmong.includes(String(route.data['choice'])));
  // The run is its candidate's: the same answer and tokens as running that workflow alone.
  const alone = await context.workflow(String(route.data['choice'])).run({ id: 'q1', text: 'Which actress played Corliss Archer in Kiss and Tell?' }, { model: offlineModel({ handlers: offlineHandlers }), retriever });
  assert.equal(result.answer, alone.answer);
  assert.equal(totalTokens(result.usage), totalTokens(alone.usage));

  // Its policy predicts without running anything: the choice at the λ it runs with is the one it made,
  // and at a steep λ it picks the cheapest candidate it predicts (what an eval's curve across λ replays).
  const predictions = await router.policy!.predict('Which actress played Corliss Archer in Kiss and Tell?');
  assert.equal(routeChoice(predictions, router.policy!.lambda), route.data['choice']);
  const cheapest = predictions.reduce((a, b) => (b.tokens < a.tokens ? b : a));
  assert.equal(routeChoice(predictions, 1000), cheapest.workflow);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
