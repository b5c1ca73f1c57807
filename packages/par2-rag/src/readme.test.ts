import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toMermaid } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/par2-rag/offline';
import { par2Rag } from '@multihop/par2-rag';
import { CorpusStore } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();

it('answers a HotpotQA question with PAR²-RAG on LanceDB and the offline model', async () => {
  // A corpus: the HotpotQA dev sample's paragraphs, pooled (open setting), in an embedded LanceDB.
  const dataset = await loadDataset('hotpotqa-dev', { limit: 20 });
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'par2-readme-')) });
  await store.ingest(dataset, { setting: 'open' });
  const retriever = await store.retriever('hotpotqa-dev-open');

  // The workflow: m = 5 sub-queries, top-100 candidates reranked to 5, hop budget H = 5 (the paper's settings).
  const workflow = par2Rag({ subQueries: 5, retrieveK: 100, rerankK: 5, hopBudget: 5 });
  const question = dataset.questions[0]!;
  const result = await workflow.run(question, {
    model: offlineModel({ handlers: offlineHandlers }), // or createModelFromEnv(...) for an OpenAI-compatible endpoint
    retriever,
    onEvent: (event) => void event, // live trace events, e.g. to light up the chart in a UI
  });

  console.log(result.answer, result.status, result.evidenceIds.slice(0, 5));
  console.log(toMermaid(workflow.chart()));
  store.close();

  expect(['ok', 'partial']).toContain(result.status);
  expect(result.trace[0]).toMatchObject({ node: 'plan', kind: 'enter' });
  expect(result.evidenceIds.length).toBeGreaterThanOrEqual(5);
});
