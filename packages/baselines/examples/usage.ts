import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainOfThought, directInference, ircot, react, singleTurnRag } from '@multihop/baselines';
import { offlineHandlers } from '@multihop/baselines/offline';
import { loadDataset } from '@multihop/datasets';
import { offlineModel } from '@multihop/offline-model';
import { CorpusStore } from '@multihop/retriever';

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'multihop-example-'));
  const dataset = await loadDataset('hotpotqa-dev', { limit: 5 });
  const store = await CorpusStore.open({ uri: dir });
  try {
    await store.ingest(dataset, { setting: 'closed' });
    const corpus = await store.retriever('hotpotqa-dev-closed');
    const question = dataset.questions[0]!;
    const retriever = corpus.forQuestion(question.id); // the distractor setting: only its own ten paragraphs

    const model = offlineModel({ handlers: offlineHandlers }); // the offline stand-in answers the baselines' roles
    for (const workflow of [directInference(), chainOfThought(), singleTurnRag({ k: 5 }), ircot({ maxSteps: 5 }), react({ maxSteps: 6 })]) {
      const result = await workflow.run(question, { model, retriever });
      console.log(workflow.id, result.answer, result.status, result.usage.llmCalls);
      assert.notEqual(result.answer, '', `${workflow.id} answers`);
    }
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
