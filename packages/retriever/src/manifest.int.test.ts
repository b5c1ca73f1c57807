import { ConfigError } from '@multihop/core';
import { CorpusStore } from './CorpusStore';
import { CorpusStoreDamagedError } from './errors';
import { lancedb } from './lance';
import { tempDir } from '../test/sharedData';

const apples = [{ id: 'x1', title: 'Apples', text: 'Apples grow on trees in orchards.' }];
const boats = [{ id: 'y1', title: 'Boats', text: 'Boats sail on the sea.' }];

describe('corpus names', () => {
  // Table names turn `.` into `_`: `a.b` and `a_b` would share tables.
  it('refuses to ingest a corpus whose tables belong to another corpus, and leaves that corpus as it was', async () => {
    const uri = await tempDir('name-collision');
    const store = await CorpusStore.open({ uri });
    await store.ingestPassages(apples, { corpus: 'a.b', source: 'one', levels: ['passage'] });
    const error = await store.ingestPassages(boats, { corpus: 'a_b', source: 'two', levels: ['passage'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `corpus name "a_b" maps to the tables of corpus "a.b" in the corpus store at ${uri} (a_b__passage, a_b__sentence: table names turn characters other than letters, digits, _ and - into _); use another corpus name`,
    );
    expect(await store.corpora()).toEqual(['a.b']);
    // A rebuild, or a drop, under the colliding name is refused before anything of a.b's is dropped.
    const rebuilt = await store.ingestPassages(boats, { corpus: 'a_b', source: 'two', levels: ['passage'], rebuild: true }).catch((e: unknown) => e);
    expect((rebuilt as Error).message).toMatch(/^corpus name "a_b" maps to the tables of corpus "a.b"/);
    await expect(store.drop('a_b')).rejects.toThrow(/^corpus name "a_b" maps to the tables of corpus "a.b"/);
    await store.verify('a.b');
    const retriever = await store.retriever('a.b');
    expect((await retriever.search('apples')).map((h) => h.id)).toEqual(['x1']);
    expect(await retriever.search('boats')).toEqual([]);
    // The corpus itself still takes more passages.
    await store.ingestPassages(boats, { corpus: 'a.b', source: 'two', levels: ['passage'] });
    expect((await (await store.retriever('a.b')).search('boats')).map((h) => h.id)).toEqual(['y1']);
    store.close();
  });
});

describe('a manifest read back', () => {
  /** A store with corpus "c", whose manifest `edit` then rewrites as another version of the code might. */
  async function storeWithManifest(edit: (manifest: Record<string, unknown>) => void): Promise<string> {
    const uri = await tempDir('manifest');
    const store = await CorpusStore.open({ uri });
    await store.ingestPassages(apples, { corpus: 'c', source: 's', levels: ['passage'] });
    store.close();
    const db = await lancedb.connect(uri);
    const table = await db.openTable('_multihop_manifests');
    const [row] = await table.query().toArray();
    const manifest = JSON.parse(String(row!.json)) as Record<string, unknown>;
    edit(manifest);
    await table.update({ where: "corpus = 'c'", values: { json: JSON.stringify(manifest) } });
    table.close();
    db.close();
    return uri;
  }

  it('is refused when a newer @multihop/retriever wrote it, and not overwritten by an ingest', async () => {
    const uri = await storeWithManifest((m) => (m.schemaVersion = 2));
    const store = await CorpusStore.open({ uri });
    const expected = `corpus "c" in the corpus store at ${uri} was written by a newer @multihop/retriever (manifest schemaVersion 2; this version reads 1); upgrade @multihop/retriever, or ingest it under another corpus name`;
    await expect(store.manifest('c')).rejects.toThrow(new ConfigError(expected));
    await expect(store.retriever('c')).rejects.toThrow(expected);
    await expect(store.ingestPassages(boats, { corpus: 'c', source: 's2', levels: ['passage'] })).rejects.toThrow(expected);
    store.close();
  });

  it('names a chunk level this version does not know, instead of calling the store damaged', async () => {
    const uri = await storeWithManifest((m) => (m.levels = ['passage', 'paragraph']));
    const store = await CorpusStore.open({ uri });
    const error = await store.retriever('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `corpus "c" in the corpus store at ${uri} has chunk level "paragraph", which this @multihop/retriever does not know (it knows passage, sentence); was it written by a newer version?`,
    );
    store.close();
  });

  it('is damage when it lacks its schema version', async () => {
    const uri = await storeWithManifest((m) => delete m.schemaVersion);
    const store = await CorpusStore.open({ uri });
    const error = await store.manifest('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusStoreDamagedError);
    expect((error as Error).message).toContain(`is damaged (the manifest of corpus "c" has no valid schemaVersion (undefined)); rebuild corpus "c"`);
    store.close();
  });
});
