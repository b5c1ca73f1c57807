import assert from 'node:assert/strict';
import { toMermaid, type RetrieverPort } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { createHeraWorkflow, heraScore, manifest, type Topology } from '@multihop/hera';
import { offlineHandlers } from '@multihop/hera/offline';

// Four passages stand in for a corpus; with @multihop/retriever, pass a LanceDB retriever instead.
const passages = [
  { id: 'p1', title: 'The Exies', text: 'The Exies are an American rock band formed in 1997 in Los Angeles.' },
  { id: 'p2', title: 'Circus Diablo', text: 'Circus Diablo was an American rock supergroup formed in 2004.' },
  { id: 'p3', title: 'Los Angeles', text: 'Los Angeles is the most populous city in California.' },
  { id: 'p4', title: 'Rock music', text: 'Rock music is a genre of popular music.' },
];
const retriever: RetrieverPort = {
  async search(query, options = {}) {
    const words = new Set(query.toLowerCase().split(/\W+/).filter((w) => w.length > 2));
    return passages
      .map((p) => ({ ...p, score: `${p.title} ${p.text}`.toLowerCase().split(/\W+/).filter((w) => words.has(w)).length }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.k ?? 5)
      .map((p, i) => ({ ...p, rank: i + 1 }));
  },
};

async function main(): Promise<void> {
  const workflow = createHeraWorkflow('full', { topK: 2 });
  const question = { id: 'q1', text: 'Which band was formed first, The Exies or Circus Diablo?' };
  const result = await workflow.run(question, { model: offlineModel({ handlers: offlineHandlers }), retriever });
  console.log(result.answer, result.evidenceIds);
  console.log(toMermaid(workflow.chart()));

  assert.equal(result.status, 'ok');
  assert.equal(result.answer, 'The Exies');
  // The orchestrator's topology is in the run's data and in the trace (a `topology` decision):
  // a comparison gets one Retriever and Answer Generator per band, in parallel, then the Conclude Agent.
  const topology = result.data?.['topology'] as Topology;
  assert.equal(topology.mode, 'parallel');
  assert.deepEqual(topology.selected_agents, ['Query Decomposer', 'Retriever', 'Answer Generator', 'Conclude Agent']);
  assert.ok(result.trace.some((e) => e.kind === 'decision' && e.data['decision'] === 'topology'));
  // Every edge the run took is a `transition` event, named as the chart names it.
  const chart = workflow.chart();
  for (const event of result.trace.filter((e) => e.kind === 'transition')) {
    assert.ok(chart.edges.some((e) => e.from === event.data['from'] && e.to === event.data['to']));
  }
  // HERA's topology metrics, as `multihop eval` reports them.
  const score = heraScore(result, { answer: 'The Exies', aliases: [] });
  console.log(score);
  assert.equal(score['agents'], 4);
  assert.deepEqual(manifest.workflows.map((w) => w.id), ['hera', 'hera-no-library', 'hera-no-rope']);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
