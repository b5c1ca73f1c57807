import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toMermaid } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { par2Rag } from '@multihop/par2-rag';
import { offlineHandlers } from '@multihop/par2-rag/offline';
import { CorpusStore } from '@multihop/retriever';

async function main(): Promise<void> {
  // A corpus: the HotpotQA dev sample's paragraphs, pooled (open setting), in an embedded LanceDB.
  const dir = await mkdtemp(join(tmpdir(), 'multihop-example-'));
  const dataset = await loadDataset('hotpotqa-dev', { limit: 20 });
  const store = await CorpusStore.open({ uri: dir });
  try {
    await store.ingest(dataset, { setting: 'open' });
    const retriever = await store.retriever('hotpotqa-dev-open');

    // The workflow: m = 5 sub-queries, top-100 candidates reranked to 5, hop budget H = 5 (the paper's settings).
    const workflow = par2Rag({ subQueries: 5, retrieveK: 100, rerankK: 5, hopBudget: 5 });
    const question = dataset.questions[0]!;
    const result = await workflow.run(question, {
      // The offline stand-in answers PAR²'s roles; or createModelFromEnv(...) for an OpenAI-compatible endpoint.
      model: offlineModel({ handlers: offlineHandlers }),
      retriever,
      onEvent: (event) => void event, // live trace events, e.g. to light up the chart in a UI
    });

    console.log(result.answer, result.status, result.evidenceIds.slice(0, 5));
    console.log(toMermaid(workflow.chart()));

    assert.ok(['ok', 'partial'].includes(result.status), `status ${result.status}`);
    assert.equal(result.trace.find((e) => e.kind === 'enter')?.node, 'plan', 'the run starts by planning');
    assert.ok(result.evidenceIds.length >= 5, 'at least rerankK passages of evidence');
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
