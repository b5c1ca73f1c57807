import { loadDataset } from '@multihop/datasets';
import { CorpusStore } from './CorpusStore';
import { datasetsDir, tempDir } from '../test/sharedData';

// The one test that ingests whole dev sets: every shared dev set, open and closed, from the files.
describe.each(['hotpotqa-dev', '2wiki-dev', 'musique-dev'])('the full %s dev set', (name) => {
  it('ingests open and closed and finds gold for most questions with BM25', async () => {
    const dataset = await loadDataset(name, { datasetsDir });
    const store = await CorpusStore.open({ uri: await tempDir(`dev-${name}`) });
    const open = await store.ingest(dataset, { levels: ['passage'] });
    const closed = await store.ingest(dataset, { setting: 'closed', levels: ['passage'] });
    expect(open.manifest.counts.passages).toBe(dataset.passages.length);
    expect(closed.manifest.counts.rows.passage).toBe(Object.values(dataset.contexts).reduce((n, ids) => n + ids.length, 0));

    const openRetriever = await store.retriever(`${name}-open`);
    const closedRetriever = await store.retriever(`${name}-closed`);
    let openAny = 0;
    let closedAny = 0;
    for (const q of dataset.questions) {
      const [o, c] = await Promise.all([openRetriever.search(q.text, { k: 10 }), closedRetriever.search(q.text, { k: 5, questionId: q.id })]);
      if (o.some((h) => q.supportingIds.includes(h.id))) openAny++;
      if (c.some((h) => q.supportingIds.includes(h.id))) closedAny++;
    }
    // Bars well under the measured figures (see README), so only a broken pipeline fails them.
    expect(openAny / dataset.questions.length).toBeGreaterThan(0.6);
    expect(closedAny / dataset.questions.length).toBeGreaterThan(0.8);
    store.close();
  });
});
