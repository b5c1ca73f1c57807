import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toMermaid } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/opera/offline';
import { collectRollouts, opera } from '@multihop/opera';
import { CorpusStore } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();

it('answers a MuSiQue question with OPERA on LanceDB and the offline model, then pauses and resumes a run', async () => {
  // A corpus: the MuSiQue dev sample's paragraphs, with sentence-level chunks, in an embedded LanceDB.
  const dataset = await loadDataset('musique-dev', { limit: 5 });
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'opera-readme-')) });
  await store.ingest(dataset, { setting: 'closed' });
  const lance = await store.retriever('musique-dev-closed');
  const question = dataset.questions[0]!;
  const retriever = { search: (q: string, o = {}) => lance.search(q, { ...o, questionId: question.id }) };

  // The workflow: top-5 sentence chunks, at most 2 rewrites per sub-goal, at most 6 sub-goals.
  const workflow = opera({ topK: 5, maxRewrites: 2, maxSteps: 6 });
  const result = await workflow.run(question, { model: offlineModel({ handlers: offlineHandlers }), retriever });
  console.log(result.answer, result.data?.['plan'], result.data?.['memory']);
  console.log(toMermaid(workflow.chart()));

  // Stop a run when the second sub-goal starts retrieving, then finish it in a new actor.
  const paused = await opera({ pauseWhen: (state, context) => state === 'retrieve' && context.memory.length === 1 }).run(question, {
    model: offlineModel({ handlers: offlineHandlers }),
    retriever,
  });
  const resumed = await workflow.resume(question, paused.data?.['snapshot'], { model: offlineModel({ handlers: offlineHandlers }), retriever });

  // MAPGRPO rollouts: G = 4 candidates per role with rewards and group-relative advantages.
  const rollouts = await collectRollouts(question, { model: offlineModel({ handlers: offlineHandlers }), retriever, group: 4, dataset: 'musique-dev' });
  store.close();

  expect(result.trace[0]).toMatchObject({ node: 'plan', kind: 'enter' });
  expect(paused.stopReason).toBe('paused');
  expect(resumed.answer).toBe(result.answer);
  expect(rollouts.filter((r) => r.role === 'opera-plan')).toHaveLength(4);
});
