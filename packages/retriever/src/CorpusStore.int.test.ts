import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, InputError } from '@multihop/core';
import { loadDataset, type Dataset } from '@multihop/datasets';
import { CorpusStore } from './CorpusStore';
import { CorpusNotFoundError, IngestError } from './errors';
import { HashingEmbedder } from './HashingEmbedder';
import type { Embedder } from '@multihop/core';
import { datasetsDir, tempDir } from '../test/sharedData';

const fixtures = join(__dirname, '../../datasets/test/fixtures');

describe('CorpusStore', () => {
  let dataset: Dataset;
  beforeAll(async () => {
    dataset = await loadDataset('musique-dev', { datasetsDir, limit: 20 });
  });

  it('ingests idempotently: a re-run adds nothing and keeps the manifest’s creation time', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('idempotent') });
    const first = await store.ingest(dataset, { setting: 'closed' });
    expect(first.added.passage).toBe(20 * 20);
    const again = await store.ingest(dataset, { setting: 'closed' });
    expect(again.added).toEqual({ passage: 0, sentence: 0 });
    expect(again.manifest.counts.rows).toEqual(first.manifest.counts.rows);
    // The same input again writes nothing, not even the manifest.
    expect(again.manifest.ingests).toBe(1);
    expect(again.manifest.createdAt).toBe(first.manifest.createdAt);
    const table = await store.table('musique-dev-closed');
    expect(await table.countRows()).toBe(400);
    store.close();
  });

  it('adds only the new paragraphs when a larger slice of the same dataset is ingested', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('grow') });
    const small = await store.ingest(dataset, { levels: ['passage'] });
    const bigger = await loadDataset('musique-dev', { datasetsDir, limit: 40 });
    const grown = await store.ingest(bigger, { levels: ['passage'] });
    expect((small.added.passage ?? 0) + (grown.added.passage ?? 0)).toBe(bigger.passages.length);
    expect(grown.manifest.counts.passages).toBe(bigger.passages.length);
    // An open corpus counts the questions whose paragraphs it pools, as a closed one does.
    expect(small.manifest.counts.questions).toBe(20);
    expect(grown.manifest.counts.questions).toBe(40);
    // New rows are searchable and indexed after the optimise step.
    const retriever = await store.retriever('musique-dev-open');
    const last = bigger.passages[bigger.passages.length - 1]!;
    expect((await retriever.search(`${last.title}. ${last.text}`, { k: 1 }))[0]?.id).toBe(last.id);
    store.close();
  });

  it('records source, counts, index settings and times in the manifest', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('manifest') });
    const embedder = new HashingEmbedder({ dimensions: 64 });
    const { manifest } = await store.ingest(dataset, { setting: 'closed', embedder });
    expect(manifest).toMatchObject({
      corpus: 'musique-dev-closed',
      setting: 'closed',
      sources: [dataset.source],
      dataset: 'musique-dev',
      layout: 'musique',
      levels: ['passage', 'sentence'],
      counts: { questions: 20, rows: { passage: 400 }, passages: new Set(Object.values(dataset.contexts).flat()).size },
      index: {
        fts: { column: 'search_text', stem: true, removeStopWords: true, language: 'English' },
        vector: { embedder: embedder.id, dimensions: 64, distance: 'cosine', index: 'flat' },
        questionIdIndex: true,
      },
    });
    expect(manifest.counts.rows.sentence).toBeGreaterThan(400);
    expect(Date.parse(manifest.createdAt)).not.toBeNaN();
    expect(await store.manifest('musique-dev-closed')).toEqual(manifest);
    expect(await store.corpora()).toEqual(['musique-dev-closed']);
    store.close();
  });

  it('rolls a failed ingest back so nothing half-ingested stays visible', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('rollback') });
    const good = new HashingEmbedder({ dimensions: 32 });
    await store.ingest(dataset, { levels: ['passage'], embedder: good });
    const before = await (await store.table('musique-dev-open')).countRows();
    const bigger = await loadDataset('musique-dev', { datasetsDir, limit: 60 });
    let calls = 0;
    const failing: Embedder = {
      id: good.id,
      dimensions: good.dimensions,
      embed: async (texts) => {
        if (++calls === 2) throw new Error('embedding service went away');
        return good.embed(texts);
      },
    };
    await expect(store.ingest(bigger, { levels: ['passage'], embedder: failing, batchSize: 100 })).rejects.toBeInstanceOf(IngestError);
    expect(await (await store.table('musique-dev-open')).countRows()).toBe(before);
    expect((await store.manifest('musique-dev-open'))?.ingests).toBe(1);

    // A corpus whose first ingest fails leaves no table and no manifest behind.
    calls = 0;
    await expect(store.ingest(bigger, { corpus: 'fresh', levels: ['passage'], embedder: failing, batchSize: 100 })).rejects.toThrow(/rolled back/);
    expect(await store.corpora()).toEqual(['musique-dev-open']);
    await expect(store.retriever('fresh')).rejects.toBeInstanceOf(CorpusNotFoundError);
    store.close();
  });

  it('refuses to mix embedders or settings in one corpus', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('mix') });
    await store.ingest(dataset, { levels: ['passage'] });
    await expect(store.ingest(dataset, { levels: ['passage'], embedder: new HashingEmbedder() })).rejects.toBeInstanceOf(ConfigError);
    await expect(store.ingest(dataset, { corpus: 'musique-dev-open', setting: 'closed' })).rejects.toThrow(/is open/);
    await expect(store.retriever('musique-dev-open', { mode: 'vector', embedder: new HashingEmbedder() })).rejects.toThrow(/has no vectors/);
    store.close();
  });

  it('needs the same embedder to search as to ingest', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('embedder') });
    await store.ingest(dataset, { levels: ['passage'], embedder: new HashingEmbedder({ dimensions: 64 }) });
    await expect(store.retriever('musique-dev-open', { mode: 'hybrid' })).rejects.toThrow(/needs an embedder/);
    await expect(store.retriever('musique-dev-open', { mode: 'vector', embedder: new HashingEmbedder({ dimensions: 128 }) })).rejects.toThrow(/was embedded with/);
    const retriever = await store.retriever('musique-dev-open');
    await expect(retriever.search('x', { level: 'sentence' })).rejects.toThrow(/no sentence-level chunks/);
    store.close();
  });

  it('names the corpora that exist when one is missing', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('missing') });
    await store.ingest(dataset, { corpus: 'present', levels: ['passage'] });
    await expect(store.retriever('absent')).rejects.toThrow('corpus "absent" not found; available: present');
    store.close();
  });

  it('rejects the closed setting for a dataset without per-question paragraphs', async () => {
    const plain = await loadDataset(join(fixtures, 'plain.jsonl'), { corpus: join(fixtures, 'plain.corpus.jsonl') });
    const store = await CorpusStore.open({ uri: await tempDir('plain') });
    await expect(store.ingest(plain, { setting: 'closed' })).rejects.toBeInstanceOf(InputError);
    const report = await store.ingest(plain);
    expect(report.added.passage).toBe(6);
    const hits = await (await store.retriever(report.corpus)).search('director of Moonfall Harbor', { k: 2 });
    expect(hits[0]?.id).toBe('p0');
    store.close();
  });

  it('ingests a corpus file without questions and drops a corpus whole', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('passages') });
    await store.ingestPassages(dataset.passages.slice(0, 30), { corpus: 'pool', source: 'test slice', levels: ['passage'] });
    expect((await store.manifest('pool'))?.counts.passages).toBe(30);
    async function* batches() {
      for (let i = 0; i < 60; i += 25) yield dataset.passages.slice(i, Math.min(i + 25, 60));
      yield dataset.passages.slice(0, 10); // repeats are skipped, not stored twice
    }
    const streamed = await store.ingestPassages(batches, { corpus: 'streamed', source: 'generator', levels: ['passage', 'sentence'] });
    expect(streamed.added.passage).toBe(60);
    expect(streamed.manifest.counts.rows.sentence).toBe(dataset.passages.slice(0, 60).reduce((n, p) => n + p.sentences.length, 0));
    await store.drop('pool');
    expect(await store.corpora()).toEqual(['streamed']);
    store.close();
  });

  it('re-ingesting an edited passage replaces its text at both levels, and leaves the unchanged ones as they were', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('edited') });
    const passages = dataset.passages.slice(0, 12);
    const first = await store.ingestPassages(passages, { corpus: 'pool', source: 'v1' });
    expect(first.updated).toEqual({ passage: 0, sentence: 0 });
    const target = passages[3]!;
    const edited = { ...target, text: 'Zanzibar lighthouse keepers logged every passing steamer.', sentences: ['Zanzibar lighthouse keepers logged every passing steamer.'] };
    const again = await store.ingestPassages(passages.map((p) => (p === target ? edited : p)), { corpus: 'pool', source: 'v2' });
    // One passage row and its first sentence row replaced; nothing added.
    expect(again.updated).toEqual({ passage: 1, sentence: 1 });
    expect(again.added).toEqual({ passage: 0, sentence: 0 });
    const retriever = await store.retriever('pool');
    const hits = await retriever.search('Zanzibar lighthouse keepers steamer', { k: 1 });
    expect(hits.map((h) => [h.id, h.text])).toEqual([[target.id, edited.text]]);
    const old = await retriever.search(target.text, { k: 12 });
    expect(old.filter((h) => h.id === target.id && h.text === target.text)).toEqual([]);
    store.close();
  });

  it("ingests core's plain passages ({ id, title, text }), splitting their sentences as the loaders do", async () => {
    const store = await CorpusStore.open({ uri: await tempDir('plain-passages') });
    const plain = [{ id: 'p1', title: 'Eiffel Tower', text: 'It is a lattice tower in Paris. It was completed in 1889.' }];
    const report = await store.ingestPassages(plain, { corpus: 'plain', source: 'core passages' });
    expect(report.added).toEqual({ passage: 1, sentence: 2 });
    const hits = await (await store.retriever('plain')).search('completed 1889', { k: 1, level: 'sentence' });
    expect(hits.map((h) => h.text)).toEqual(['It was completed in 1889.']);
    store.close();
  });

  it('defaults to an embedded database under .multihop/ in the working directory', async () => {
    const dir = await tempDir('cwd');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const store = await CorpusStore.open();
      expect(store.uri).toBe(join(dir, '.multihop', 'lancedb'));
      await store.ingest(dataset, { levels: ['passage'] });
      expect(existsSync(join(dir, '.multihop', 'lancedb'))).toBe(true);
      store.close();
    } finally {
      process.chdir(cwd);
    }
  });

  it('accepts any LanceDB URI, not only a directory', async () => {
    const dir = await tempDir('uri');
    for (const uri of ['memory://', `file://${dir}`]) {
      const store = await CorpusStore.open({ uri });
      expect(store.uri).toBe(uri);
      await store.ingest(dataset, { levels: ['passage'] });
      const q = dataset.questions[0]!;
      const hits = await (await store.retriever('musique-dev-open')).search(q.text, { k: 10 });
      expect(hits.some((h) => q.supportingIds.includes(h.id))).toBe(true);
      store.close();
    }
    expect(existsSync(join(dir, 'musique-dev-open__passage.lance'))).toBe(true);
  });

  it('rejects corpus names that cannot be table names', async () => {
    const store = await CorpusStore.open({ uri: await tempDir('names') });
    await expect(store.ingest(dataset, { corpus: '../evil' })).rejects.toMatchObject({ location: { field: 'corpus' } });
    store.close();
  });
});
