import { spawn } from 'node:child_process';
import { readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { loadDataset, type Dataset } from '@multihop/datasets';
import { CorpusStore, tableName, type IngestProgress } from './CorpusStore';
import { CorpusStoreBusyError, CorpusStoreDamagedError } from './errors';
import { openDatasetCorpus } from './openDatasetCorpus';
import { WRITER_LOCK } from './writerLock';
import { datasetsDir, tempDir } from '../test/sharedData';

/** The one data file of a corpus level's table (ingest compacts it to one). */
function dataFile(uri: string, corpus: string, level: 'passage' | 'sentence' = 'passage'): string {
  const dir = join(uri, `${tableName(corpus, level)}.lance`, 'data');
  return join(dir, readdirSync(dir)[0]!);
}

describe('a damaged corpus store', () => {
  let dataset: Dataset;
  beforeAll(async () => {
    dataset = await loadDataset('hotpotqa-train', { datasetsDir, limit: 10 });
  });

  async function ingested(prefix: string): Promise<string> {
    const uri = await tempDir(prefix);
    (await openDatasetCorpus(dataset, { uri })).close();
    return uri;
  }

  it('is an error naming the store and the missing data file when a data file is deleted, and ingest with rebuild repairs it', async () => {
    const uri = await ingested('damaged-deleted');
    rmSync(dataFile(uri, 'hotpotqa-train-open'));
    const error = await openDatasetCorpus(dataset, { uri }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusStoreDamagedError);
    expect((error as Error).message).toMatch(new RegExp(`^the corpus store at ${uri} is damaged \\(data file hotpotqa-train-open__passage\\.lance/data/\\w+\\.lance is missing\\); rebuild corpus "hotpotqa-train-open"`));
    expect((error as Error).message).not.toMatch(/cargo|rustc/);

    const events: IngestProgress['phase'][] = [];
    const rebuilt = await openDatasetCorpus(dataset, { uri, ingest: { rebuild: true, onProgress: (p) => events.push(p.phase) } });
    expect(rebuilt.report.added.passage).toBe(dataset.passages.length);
    expect(rebuilt.report.manifest.ingests).toBe(1);
    expect(events).toEqual(['start', 'write', 'write', 'index', 'done']);
    const hit = (await rebuilt.retriever.search(dataset.questions[0]!.text, { k: 1 }))[0];
    expect(hit).toBeDefined();
    rebuilt.close();
  });

  it('is an error when a data file is truncated, also at search time', async () => {
    const uri = await ingested('damaged-truncated');
    const opened = await openDatasetCorpus(dataset, { uri });
    truncateSync(dataFile(uri, 'hotpotqa-train-open', 'passage'), 100);
    await expect(opened.retriever.search('Gallu demon', { k: 3 })).rejects.toThrow(`the corpus store at ${uri} is damaged (a data file is truncated or corrupt)`);
    opened.close();
    await expect(openDatasetCorpus(dataset, { uri })).rejects.toBeInstanceOf(CorpusStoreDamagedError);
  });

  it('is an error when the path is a regular file', async () => {
    const file = join(await tempDir('damaged-file'), 'db');
    writeFileSync(file, 'not a database');
    await expect(CorpusStore.open({ uri: file })).rejects.toThrow(`the corpus store at ${file} is damaged (it is a regular file, not a directory)`);
  });

  it('rebuilds a corpus whose table lost its version files (LanceDB cannot open it)', async () => {
    const uri = await ingested('damaged-versions');
    rmSync(join(uri, `${tableName('hotpotqa-train-open', 'sentence')}.lance`, '_versions'), { recursive: true });
    await expect(openDatasetCorpus(dataset, { uri })).rejects.toBeInstanceOf(CorpusStoreDamagedError);
    const rebuilt = await openDatasetCorpus(dataset, { uri, ingest: { rebuild: true } });
    expect(rebuilt.report.added.sentence).toBeGreaterThan(0);
    rebuilt.close();
  });
});

describe('the writer lock', () => {
  let dataset: Dataset;
  beforeAll(async () => {
    dataset = await loadDataset('hotpotqa-train', { datasetsDir, limit: 3 });
  });

  it('waits for a live writer, then gives up naming it and the lock file', async () => {
    const uri = await tempDir('lock-live');
    const sleeper = spawn('sleep', ['30']);
    try {
      writeFileSync(join(uri, WRITER_LOCK), JSON.stringify({ pid: sleeper.pid, host: hostname(), corpus: 'other', since: 'then' }));
      const store = await CorpusStore.open({ uri });
      const notices: string[] = [];
      const error = await store
        .ingest(dataset, { waitForWriterMs: 300, onProgress: (p) => p.phase === 'waiting' && notices.push(p.message) })
        .catch((e: unknown) => e);
      store.close();
      expect(error).toBeInstanceOf(CorpusStoreBusyError);
      expect((error as Error).message).toContain(`is still being written by process ${sleeper.pid} (corpus "other", since then)`);
      expect((error as Error).message).toContain(`delete ${join(uri, WRITER_LOCK)}`);
      expect(notices).toEqual([`waiting for process ${sleeper.pid}, which has been writing corpus "other" to the corpus store at ${uri} since then`]);
    } finally {
      sleeper.kill();
    }
  });

  it('takes over the lock of a writer that no longer runs, and releases its own', async () => {
    const uri = await tempDir('lock-dead');
    const gone = spawn('true');
    await new Promise((r) => gone.on('exit', r));
    writeFileSync(join(uri, WRITER_LOCK), JSON.stringify({ pid: gone.pid, host: hostname(), corpus: 'x', since: 'then' }));
    const store = await CorpusStore.open({ uri });
    const notices: string[] = [];
    const report = await store.ingest(dataset, { onProgress: (p) => p.phase === 'waiting' && notices.push(p.message) });
    store.close();
    expect(report.added.passage).toBe(dataset.passages.length);
    expect(notices[0]).toContain(`writer lock of process ${gone.pid}, which no longer runs`);
    expect(readdirSync(uri)).not.toContain(WRITER_LOCK);
  });

  it('lets two ingests of one corpus in one store run one after the other', async () => {
    const uri = await tempDir('lock-two');
    const [a, b] = await Promise.all([CorpusStore.open({ uri }), CorpusStore.open({ uri })]);
    const reports = await Promise.all([a.ingest(dataset), b.ingest(dataset)]);
    a.close();
    b.close();
    const added = reports.map((r) => r.added.passage).sort();
    expect(added).toEqual([0, dataset.passages.length]);
    expect(reports[0]!.manifest.counts.questions).toBe(3);
  });
});
