import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question, RetrieverPort } from '@multihop/core';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

/** A real LanceDB corpus on disk (passage and sentence chunks): the first `limit` MuSiQue dev questions, closed setting. */
export async function musiqueClosedCorpus(limit: number): Promise<DatasetCorpus & { questions: Question[] }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const corpus = await openDatasetCorpus('musique-dev', { setting: 'closed', uri: await mkdtemp(join(tmpdir(), 'multihop-opera-')), load: { limit } });
  return { ...corpus, questions: corpus.dataset.questions };
}

/** One question's view of the closed corpus. */
export function scopedTo(corpus: DatasetCorpus, question: Question): RetrieverPort {
  return corpus.retriever.forQuestion(question.id);
}
