import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question, RetrieverPort } from '@multihop/core';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

process.env['LANCEDB_LOG'] ??= 'error';

/** A real LanceDB corpus on disk: the first `limit` questions of a shared train split, closed setting (each question's own paragraphs). */
export async function trainCorpus(dataset: 'hotpotqa-train' | 'musique-train', limit: number): Promise<DatasetCorpus & { questions: Question[]; dispose(): void }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const dir = mkdtempSync(join(tmpdir(), 'multihop-mao-arag-'));
  const corpus = await openDatasetCorpus(dataset, { setting: 'closed', uri: dir, load: { limit } });
  return {
    ...corpus,
    questions: corpus.dataset.questions,
    dispose: () => {
      corpus.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One question's view of the closed corpus. */
export function scopedTo(corpus: DatasetCorpus, question: Question): RetrieverPort {
  return corpus.retriever.forQuestion(question.id);
}

export { questionStarting, timed, type TimedCall } from '@multihop/testing';
