import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainOfThought, directInference, ircot, react, singleTurnRag } from '@multihop/baselines';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/baselines/offline';
import { CorpusStore } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();

it('runs the five baselines on one question', async () => {
  const dataset = await loadDataset('hotpotqa-dev', { limit: 5 });
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'baselines-readme-')) });
  await store.ingest(dataset, { setting: 'closed' });
  const corpus = await store.retriever('hotpotqa-dev-closed');
  const question = dataset.questions[0]!;
  const retriever = corpus.forQuestion(question.id); // the distractor setting: only its own ten paragraphs

  const model = offlineModel({ handlers: offlineHandlers });
  for (const workflow of [directInference(), chainOfThought(), singleTurnRag({ k: 5 }), ircot({ maxSteps: 5 }), react({ maxSteps: 6 })]) {
    const result = await workflow.run(question, { model, retriever });
    console.log(workflow.id, result.answer, result.status, result.usage.llmCalls);
    expect(result.answer).not.toBe('');
  }
  store.close();
});
