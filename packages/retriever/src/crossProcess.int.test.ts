import { loadDataset, type Dataset } from '@multihop/datasets';
import { CorpusStore, tableName } from './CorpusStore';
import { CorpusStoreDamagedError } from './errors';
import { lancedb } from './lance';
import { runChild } from '../test/child';
import { datasetsDir, tempDir } from '../test/sharedData';

// Two processes on one store: what a studio or queue worker (a retriever kept open) sees while a
// CLI ingest grows the corpus, and what an ingest killed before its end leaves for the next one.
describe('a corpus store used by two processes', () => {
  let dataset: Dataset;
  beforeAll(async () => {
    dataset = await loadDataset('hotpotqa-dev', { datasetsDir, limit: 60 });
  });

  async function ingestInChild(uri: string, limit: number, options: { killAfter?: number; keepOldVersionsMs?: number } = {}) {
    const args = [uri, String(limit), String(options.killAfter ?? 0), ...(options.keepOldVersionsMs === undefined ? [] : [String(options.keepOldVersionsMs)])];
    const result = await runChild('ingestChild.ts', args);
    if (!options.killAfter && result.code !== 0) throw new Error(`child ingest failed: ${result.stderr}`);
    return result;
  }

  /** A 10-question corpus ingested by another process, and a retriever on it that has searched once. */
  async function openReader(name: string) {
    const uri = await tempDir(name);
    await ingestInChild(uri, 10);
    const store = await CorpusStore.open({ uri });
    const retriever = await store.retriever('c');
    const q = dataset.questions[0]!;
    const before = await retriever.search(q.text, { k: 3 });
    expect(before).toHaveLength(3);
    return { uri, store, retriever, q, before };
  }

  it('keeps a retriever open in one process searching while another process grows the corpus', async () => {
    const { uri, store, retriever, q, before } = await openReader('reader-open');

    // The other process's ingest rewrites the data files (compaction) and cleans up old versions;
    // the version this retriever reads was replaced seconds ago, so its files stay. It keeps
    // reading that version: the rows it searches do not change under it.
    await ingestInChild(uri, 60);
    expect(await retriever.search(q.text, { k: 3 })).toEqual(before);
    expect(await retriever.search(q.text, { k: 3, level: 'sentence' })).toHaveLength(3);
    store.close();
  });

  it('moves a retriever to the latest version when another process deleted the files of the one it reads', async () => {
    const { uri, store, retriever, q, before } = await openReader('reader-cleaned');

    // No grace period: the other process deletes every version but its own latest (what the
    // grace period does an hour later), including the files this retriever reads.
    await ingestInChild(uri, 60, { keepOldVersionsMs: 0 });
    const after = await retriever.search(q.text, { k: 3 });
    expect(after.map((h) => h.id)).toContain(before[0]!.id);
    expect(await retriever.search(q.text, { k: 3, level: 'sentence' })).toHaveLength(3);
    // On the latest version it also finds the rows the other process added.
    const late = dataset.questions[55]!;
    const lateHits = await retriever.search(late.text, { k: 10 });
    expect(lateHits.some((h) => late.supportingIds.includes(h.id))).toBe(true);
    store.close();
  });

  it('keeps the versions a reader may still be on for the grace period, and removes older ones at the next writing ingest', async () => {
    const uri = await tempDir('reader-grace');
    await ingestInChild(uri, 5);
    const reader = await lancedb.connect(uri);
    const pinned = await reader.openTable(tableName('c', 'passage'));
    const version = await pinned.version();
    await ingestInChild(uri, 10);
    // A plain LanceDB handle (no retry) still reads its version: its files were kept.
    expect(await pinned.countRows()).toBe(50);
    expect(await pinned.query().select(['id']).toArray()).toHaveLength(50);
    // Replaced less than the grace period ago, so kept; an ingest with no grace deletes it.
    const store = await CorpusStore.open({ uri });
    const more = await loadDataset('hotpotqa-dev', { datasetsDir, limit: 15 });
    await store.ingest(more, { corpus: 'c', keepOldVersionsMs: 0 });
    store.close();
    const table = await reader.openTable(tableName('c', 'passage'));
    const versions = (await table.listVersions()).map((v) => v.version);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toBeGreaterThan(version);
    pinned.close();
    table.close();
    reader.close();
  });

  it('restores a corpus whose growth was killed mid-write to its manifest, so the old input stays a no-op with the old rows', async () => {
    const uri = await tempDir('killed-growth');
    await ingestInChild(uri, 20);
    const killed = await ingestInChild(uri, 60, { killAfter: 300 });
    expect(killed.signal).toBe('SIGKILL');

    // The killed ingest's rows are in the table, and verify() says so.
    const store = await CorpusStore.open({ uri });
    expect(await (await store.table('c')).countRows()).toBeGreaterThan(200);
    const error = await store.verify('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusStoreDamagedError);
    expect((error as Error).message).toMatch(/table c__passage holds \d+ rows where the manifest of corpus "c" counts 200; an ingest was probably killed before its end\); ingest corpus "c" again \(any input: the ingest restores its tables to the manifest first\), or rebuild it with `rebuild: true`$/);

    // Ingesting the old input again (a no-op for its rows) restores the tables to the manifest.
    const twenty = await loadDataset('hotpotqa-dev', { datasetsDir, limit: 20 });
    const repairs: string[] = [];
    const report = await store.ingest(twenty, { corpus: 'c', onProgress: (p) => p.phase === 'repair' && repairs.push(p.message) });
    expect(report.added).toEqual({ passage: 0, sentence: 0 });
    expect(repairs).toHaveLength(1);
    expect(repairs[0]).toMatch(/^corpus "c": table c__passage was at version \d+ \(\d+ rows\), past the version \d+ its manifest describes \(an ingest killed before its end\); restored it to version \d+ \(200 rows\)$/);
    expect(await (await store.table('c')).countRows()).toBe(200);
    await store.verify('c');
    const own = new Set(twenty.passages.map((p) => p.id));
    const retriever = await store.retriever('c');
    for (const q of dataset.questions.slice(20)) for (const h of await retriever.search(q.text, { k: 5 })) expect(own.has(h.id)).toBe(true);
    // Repaired once: the manifest records the restored version, so the next ingest finds nothing to restore and adds no version.
    const versionsBefore = (await (await store.table('c')).listVersions()).length;
    const again: string[] = [];
    await store.ingest(twenty, { corpus: 'c', onProgress: (p) => p.phase === 'repair' && again.push(p.message) });
    expect(again).toEqual([]);
    expect((await (await store.table('c')).listVersions()).length).toBe(versionsBefore);
    store.close();

    // ... and the growth, run to its end, is complete.
    const grown = JSON.parse((await ingestInChild(uri, 60)).stdout) as { rows: { passage: number } };
    expect(grown.rows.passage).toBe(600);
  });
});
