import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatasetCorpus } from './openDatasetCorpus';

process.env['MULTIHOP_DATASETS_DIR'] ??= resolve(__dirname, '../../../../shared/datasets');

describe('openDatasetCorpus', () => {
  it('loads, ingests once and searches a closed corpus per question', async () => {
    const uri = await mkdtemp(join(tmpdir(), 'multihop-open-dataset-'));
    const first = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri, load: { limit: 8 }, ingest: { levels: ['passage'] } });
    expect(first.corpus).toBe('hotpotqa-dev-closed');
    expect(first.report.added.passage).toBeGreaterThan(0);
    const question = first.dataset.questions[3]!;
    const hits = await first.retriever.forQuestion(question.id).search(question.text, { k: 10 });
    const own = new Set(first.dataset.contexts[question.id]);
    expect(hits.length).toBe(own.size);
    expect(hits.every((h) => own.has(h.id))).toBe(true);
    const table = await first.store.table(first.corpus, 'passage');
    expect(table.isOpen()).toBe(true);
    first.close();
    expect(table.isOpen()).toBe(false);

    const again = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri, load: { limit: 8 }, ingest: { levels: ['passage'] } });
    expect(again.report.added.passage ?? 0).toBe(0);
    again.close();
  });

  it('gives two question files of one name (two dev.json) their own tables, and an edited file a new one', async () => {
    // Two slices of the real 2WikiMultiHopQA dev sample, each saved as dev.json in its own folder.
    const dev = JSON.parse(readFileSync(resolve(process.env['MULTIHOP_DATASETS_DIR']!, '2wikimultihopqa', 'dev-500.json'), 'utf8')) as unknown[];
    const root = await mkdtemp(join(tmpdir(), 'multihop-same-name-'));
    const write = async (folder: string, records: unknown[]) => {
      await mkdir(join(root, folder));
      await writeFile(join(root, folder, 'dev.json'), JSON.stringify(records));
      return join(root, folder, 'dev.json');
    };
    const [a, b] = [await write('a', dev.slice(0, 3)), await write('b', dev.slice(3, 6))];
    const uri = join(root, 'db');
    const opened = async (file: string) => {
      const corpus = await openDatasetCorpus(file, { uri, ingest: { levels: ['passage'] } });
      corpus.close();
      return { name: corpus.corpus, passages: corpus.report.manifest.counts.passages, own: corpus.dataset.passages.length };
    };
    const first = await opened(a);
    const second = await opened(b);
    expect(first.name).toMatch(/^dev-[0-9a-f]{8}-open$/);
    expect(second.name).not.toBe(first.name);
    // Each table holds its own file's paragraphs only, before and after the other was ingested.
    expect(second.passages).toBe(second.own);
    expect(await opened(a)).toEqual(first);
    await writeFile(a, JSON.stringify(dev.slice(0, 2)));
    expect((await opened(a)).name).not.toBe(first.name);
  });

  it('leaves an open corpus unrestricted', async () => {
    const uri = await mkdtemp(join(tmpdir(), 'multihop-open-dataset-'));
    const open = await openDatasetCorpus('hotpotqa-dev', { uri, load: { limit: 8 }, ingest: { levels: ['passage'] } });
    expect(open.retriever.forQuestion(open.dataset.questions[0]!.id)).toBe(open.retriever);
    open.close();
  });
});
