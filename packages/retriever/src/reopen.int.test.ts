import { loadDataset } from '@multihop/datasets';
import { lancedb } from './lance';
import { openDatasetCorpus } from './openDatasetCorpus';
import { CorpusStore, tableName } from './CorpusStore';
import { HashingEmbedder } from './HashingEmbedder';
import { datasetsDir, tempDir } from '../test/sharedData';

// The runner opens its corpus on every start through openDatasetCorpus (apps/runner/src/corpus.ts).
describe('opening the same corpus again', () => {
  /** Every table's number of versions in the database. */
  async function versions(uri: string): Promise<Record<string, number>> {
    const db = await lancedb.connect(uri);
    const out: Record<string, number> = {};
    for (const name of await db.tableNames()) {
      const table = await db.openTable(name);
      out[name] = (await table.listVersions()).length;
      table.close();
    }
    db.close();
    return out;
  }

  it('writes nothing when the corpus is unchanged, and re-ingests a changed one', async () => {
    const uri = await tempDir('reopen');
    const embedder = new HashingEmbedder();
    const open = (limit: number, keepOldVersionsMs?: number) =>
      openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri, load: { datasetsDir, limit }, ingest: { embedder, keepOldVersionsMs }, retriever: { embedder, mode: 'hybrid' } });

    const first = await open(30);
    expect(first.report.added).toEqual({ passage: 300, sentence: expect.any(Number) });
    first.close();
    const afterFirst = await versions(uri);
    expect(Object.keys(afterFirst).sort()).toEqual(['_multihop_manifests', tableName(first.corpus, 'passage'), tableName(first.corpus, 'sentence')].sort());
    // The versions the ingest went through stay for the grace period (a reader elsewhere may be on one).
    expect(Object.values(afterFirst).every((n) => n > 1)).toBe(true);

    for (let start = 0; start < 2; start++) {
      const again = await open(30);
      expect(again.report.added).toEqual({ passage: 0, sentence: 0 });
      expect(again.report.manifest).toEqual(first.report.manifest);
      const q = again.dataset.questions[7]!;
      const hits = await again.retriever.forQuestion(q.id).search(q.text, { k: 5 });
      expect(hits.some((h) => q.supportingIds.includes(h.id))).toBe(true);
      again.close();
      expect(await versions(uri)).toEqual(afterFirst);
    }

    // A changed input (ten more questions) is written: their rows only, searchable, manifest updated.
    // Without a grace period, its cleanup leaves one version per table.
    const grown = await open(40, 0);
    expect(grown.report.added.passage).toBe(100);
    expect(grown.report.manifest.counts.rows.passage).toBe(400);
    expect(grown.report.manifest.counts.questions).toBe(40);
    expect(grown.report.manifest.ingests).toBe(2);
    const q = grown.dataset.questions[35]!;
    const hits = await grown.retriever.forQuestion(q.id).search(q.text, { k: 10 });
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => grown.dataset.contexts[q.id]!.includes(h.id))).toBe(true);
    expect(hits.some((h) => q.supportingIds.includes(h.id))).toBe(true);
    grown.close();
    expect(Object.values(await versions(uri))).toEqual([1, 1, 1]);

    // ... and the grown corpus opens without writing too; the earlier, smaller input still does.
    const before = await versions(uri);
    for (const limit of [40, 30]) {
      const reopened = await open(limit);
      expect(reopened.report.added).toEqual({ passage: 0, sentence: 0 });
      reopened.close();
    }
    expect(await versions(uri)).toEqual(before);
  });

  it('stores the same vectors as embedding each row with embed() (Arrow columns, float32)', async () => {
    const uri = await tempDir('arrow-vectors');
    const embedder = new HashingEmbedder();
    const dataset = await loadDataset('musique-dev', { datasetsDir, limit: 10 });
    const opened = await openDatasetCorpus(dataset, { uri, ingest: { embedder, levels: ['passage'] } });
    const table = await opened.store.table(opened.corpus);
    const rows = await table.query().select(['id', 'title', 'text', 'vector']).toArray();
    expect(rows).toHaveLength(dataset.passages.length);
    // A vector embeds the row's own title and text (search_text is the index's folded form of them).
    const expected = await embedder.embed(rows.map((r) => `${String(r.title)}. ${String(r.text)}`));
    rows.forEach((r, i) => expect([...(r.vector as Iterable<number>)]).toEqual([...new Float32Array(expected[i]!)]));
    opened.close();
  });
});

describe('a remote corpus URI', () => {
  it('refuses malformed storage options before connecting, naming the field', async () => {
    await expect(CorpusStore.open({ uri: 's3://bucket/db', storageOptions: { allowHttp: 'maybe' } })).rejects.toMatchObject({ location: { field: 'storageOptions.allowHttp' } });
  });

  it('hands the storage options to LanceDB: the S3 client calls the endpoint given', async () => {
    // Nothing listens on port 1: the error names the endpoint's URL, so it reached the object store.
    const storageOptions = { endpoint: 'http://127.0.0.1:1', allowHttp: 'true', awsAccessKeyId: 'k', awsSecretAccessKey: 's', region: 'us-east-1', clientMaxRetries: '0' };
    await expect(openDatasetCorpus('musique-dev', { uri: 's3://bucket/db', storageOptions, load: { datasetsDir, limit: 1 } })).rejects.toThrow(/http:\/\/127\.0\.0\.1:1\/bucket/);
  });
});
