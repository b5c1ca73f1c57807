import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorpusStore } from './CorpusStore';
import { HashingEmbedder } from './HashingEmbedder';

// Regression: a query with double quotes (IRCoT feeds a reasoning sentence that quotes a song
// title) reached LanceDB's query parser as a phrase query and failed with "position is not
// found but required for phrase queries".
it('searches a query with quotes as plain words, in BM25 and hybrid modes', async () => {
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'multihop-quoted-')) });
  const embedder = new HashingEmbedder();
  await store.ingestPassages(
    [
      { id: 'a', title: 'To Know Him Is to Love Him', text: '"To Know Him Is to Love Him" is a song written by Phil Spector.', sentences: ['"To Know Him Is to Love Him" is a song written by Phil Spector.'] },
      { id: 'b', title: 'Back to Mono', text: 'Back to Mono is a box set of recordings produced by Phil Spector.', sentences: ['Back to Mono is a box set of recordings produced by Phil Spector.'] },
    ],
    { corpus: 'quoted', source: 'test', embedder },
  );
  // Opening and closing with a quote made the parser read the whole query as one phrase.
  const query = '"To Know Him Is to Love Him" is a song written by Phil Spector, inspired by words on a tombstone, "To Know Him Was To Love Him."';
  const bm25 = await store.retriever('quoted');
  expect((await bm25.search(query, { k: 2 }))[0]?.id).toBe('a');
  const hybrid = await store.retriever('quoted', { mode: 'hybrid', embedder });
  expect((await hybrid.search(query, { k: 2 })).map((h) => h.id)).toContain('a');
  store.close();
});
