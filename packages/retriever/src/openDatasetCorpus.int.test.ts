import { mkdtemp } from 'node:fs/promises';
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

  it('leaves an open corpus unrestricted', async () => {
    const uri = await mkdtemp(join(tmpdir(), 'multihop-open-dataset-'));
    const open = await openDatasetCorpus('hotpotqa-dev', { uri, load: { limit: 8 }, ingest: { levels: ['passage'] } });
    expect(open.retriever.forQuestion(open.dataset.questions[0]!.id)).toBe(open.retriever);
    open.close();
  });
});
