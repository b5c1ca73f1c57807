import { CorpusStore } from './CorpusStore';
import { tempDir } from '../test/sharedData';

describe('deduplicated searches', () => {
  // One passage whose 40 sentences all match the query better than any other passage's sentence:
  // they fill the 4k rows a search fetches first, and dedupe by passage keeps one of them.
  it('returns k passages at sentence level with dedupeBy passage when one passage has many matching sentences', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('dedupe-sentences') });
    const crowded = { id: 'crowded', title: 'Zebra', text: '', sentences: Array.from({ length: 40 }, (_, i) => `Zebra zebra stripes number ${i}.`) };
    const others = Array.from({ length: 12 }, (_, i) => ({ id: `other-${i}`, title: `Savanna ${i}`, text: `A zebra was seen near waterhole ${i} among many other animals of the plain.` }));
    await store.ingestPassages([crowded, ...others], { corpus: 'z', source: 'test', levels: ['sentence'] });
    const retriever = await store.retriever('z');
    for (const k of [5, 10]) {
      const hits = await retriever.search('zebra stripes', { k, level: 'sentence', dedupeBy: 'passage' });
      expect(hits).toHaveLength(k);
      expect(new Set(hits.map((h) => h.passageId)).size).toBe(k);
      expect(hits[0]!.passageId).toBe('crowded');
    }
    // Fewer distinct passages than k: all of them, and the search ends.
    expect(await retriever.search('zebra stripes', { k: 20, level: 'sentence', dedupeBy: 'passage' })).toHaveLength(13);
    store.close();
  });
});
