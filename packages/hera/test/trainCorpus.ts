import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question } from '@multihop/core';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

process.env['LANCEDB_LOG'] ??= 'error';

/** A real LanceDB corpus on disk: the first `limit` questions of the shared HotpotQA train split, each with its own paragraphs (closed setting). */
export async function trainCorpus(limit: number): Promise<DatasetCorpus & { questions: Question[]; dispose(): void }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const dir = mkdtempSync(join(tmpdir(), 'multihop-hera-'));
  const corpus = await openDatasetCorpus('hotpotqa-train', { setting: 'closed', uri: dir, load: { limit } });
  return {
    ...corpus,
    questions: corpus.dataset.questions,
    dispose: () => {
      corpus.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { questionStarting, timed, type TimedCall } from '@multihop/testing';
