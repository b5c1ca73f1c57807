import { goldSentenceIds, loadDataset } from '@multihop/datasets';
import { CorpusStore } from './CorpusStore';
import { datasetsDir, tempDir } from '../test/sharedData';

// OPERA retrieves sentences: the sentence-level gold of 2Wiki must come back in the id space of sentence hits.
it('finds 2Wiki gold sentences among sentence hits of the closed setting', async () => {
  const dataset = await loadDataset('2wiki-dev', { datasetsDir, limit: 50 });
  const store = await CorpusStore.open({ uri: await tempDir('sentences') });
  await store.ingest(dataset, { setting: 'closed', levels: ['sentence'] });
  const retriever = await store.retriever('2wiki-dev-closed');
  let found = 0;
  for (const q of dataset.questions) {
    const gold = new Set(goldSentenceIds(q));
    const hits = await retriever.search(q.text, { k: 10, questionId: q.id, level: 'sentence' });
    for (const h of hits) expect(dataset.contexts[q.id]).toContain(h.passageId);
    if (hits.some((h) => gold.has(h.id))) found++;
  }
  console.log(`gold sentence in top 10: ${found}/${dataset.questions.length}`);
  expect(found / dataset.questions.length).toBeGreaterThanOrEqual(0.8);
  store.close();
});
