import assert from 'node:assert/strict';
import { toMermaid, type RetrieverPort } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { createMaoAragWorkflow, manifest, rewardOfRun, TOP_LEVEL_WORKFLOWS } from '@multihop/mao-arag';
import { offlineHandlers } from '@multihop/mao-arag/offline';

// Three passages stand in for a corpus; with @multihop/retriever, pass a LanceDB retriever instead.
const passages = [
  { id: 'p1', title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 comedy film starring Shirley Temple as Corliss Archer.' },
  { id: 'p2', title: 'Shirley Temple', text: 'Shirley Temple Black was an American actress who served as Chief of Protocol of the United States.' },
  { id: 'p3', title: 'Meet Corliss Archer', text: 'Meet Corliss Archer is an American radio comedy.' },
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
  const model = offlineModel({ handlers: offlineHandlers });
  const question = { id: 'q1', text: 'Which actress played Corliss Archer in Kiss and Tell?', answer: 'Shirley Temple', aliases: [] };

  // The untrained (prompted) planner picks a workflow for the question; the gate checks it; the executors run it.
  const planned = createMaoAragWorkflow({ kind: 'no-train' });
  const result = await planned.run(question, { model, retriever });
  const [decision] = result.data?.['workflows'] as Array<{ executed: string; valid: boolean }>;
  console.log(result.answer, decision, result.evidenceIds);
  assert.equal(result.status, 'ok');
  assert.equal(decision?.valid, true);
  assert.match(result.answer, /Shirley Temple/);

  // A fixed workflow of the 18 valid ones, and the reward R = F1 − α·CP − FP against the gold.
  const cheap = await createMaoAragWorkflow({ kind: 'fixed', workflow: ['R', 'AG'] }).run(question, { model, retriever });
  const scale = { tokens: 2000, turns: 5, retrievals: 4 };
  const [r1, r2] = [rewardOfRun(result, question, scale), rewardOfRun(cheap, question, scale)];
  console.log(cheap.answer, { planned: r1.total, fixed: r2.total });
  assert.ok(r2.components['f1']! > 0.5);
  assert.ok(r2.components['cost']! < r1.components['cost']!, 'R+AG spends less than the planned workflow');

  console.log(toMermaid(planned.chart()));
  assert.equal(TOP_LEVEL_WORKFLOWS.length, 18);
  assert.equal(manifest.workflows.length, 2 + 18);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
