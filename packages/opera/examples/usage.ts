import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toMermaid } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { collectRollouts, opera } from '@multihop/opera';
import { offlineHandlers } from '@multihop/opera/offline';
import { CorpusStore } from '@multihop/retriever';

async function main(): Promise<void> {
  // A corpus: the MuSiQue dev sample's paragraphs, with sentence-level chunks, in an embedded LanceDB.
  const dir = await mkdtemp(join(tmpdir(), 'multihop-example-'));
  const dataset = await loadDataset('musique-dev', { limit: 5 });
  const store = await CorpusStore.open({ uri: dir });
  try {
    await store.ingest(dataset, { setting: 'closed' });
    const lance = await store.retriever('musique-dev-closed');
    const question = dataset.questions[0]!;
    const retriever = { search: (q: string, o = {}) => lance.search(q, { ...o, questionId: question.id }) };
    const model = offlineModel({ handlers: offlineHandlers }); // the offline stand-in answers OPERA's roles

    // The workflow: top-5 sentence chunks, at most 2 rewrites per sub-goal, at most 6 sub-goals.
    const workflow = opera({ topK: 5, maxRewrites: 2, maxSteps: 6 });
    const result = await workflow.run(question, { model, retriever });
    console.log(result.answer, result.data?.['plan'], result.data?.['memory']);
    console.log(toMermaid(workflow.chart()));

    // Stop a run when the second sub-goal starts retrieving, then finish it in a new actor.
    const paused = await opera({ pauseWhen: (state, context) => state === 'retrieve' && context.memory.length === 1 }).run(question, { model, retriever });
    const resumed = await workflow.resume(question, paused.data?.['snapshot'], { model, retriever });

    // MAPGRPO rollouts: G = 4 candidates per role with rewards and group-relative advantages.
    const rollouts = await collectRollouts(question, { model, retriever, group: 4, dataset: 'musique-dev' });

    assert.equal(result.trace.find((e) => e.kind === 'enter')?.node, 'plan', 'the run starts by planning');
    assert.equal(paused.stopReason, 'paused');
    assert.equal(resumed.answer, result.answer);
    assert.equal(rollouts.filter((r) => r.role === 'opera-plan').length, 4);
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
