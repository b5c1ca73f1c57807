import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question, RetrieverPort } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { sharedDatasetsDir } from '@multihop/testing';
import { CorpusStore, type LanceRetriever } from '@multihop/retriever';

/** A real LanceDB corpus on disk (passage and sentence chunks): the first `limit` MuSiQue dev questions, closed setting. */
export async function musiqueClosedCorpus(limit: number): Promise<{ questions: Question[]; retriever: LanceRetriever; close(): void }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const dataset = await loadDataset('musique-dev', { limit });
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'multihop-opera-')) });
  await store.ingest(dataset, { setting: 'closed' });
  const retriever = await store.retriever('musique-dev-closed');
  return { questions: dataset.questions, retriever, close: () => store.close() };
}

/** The closed (distractor) setting: every search restricted to one question's own paragraphs. */
export function scopedTo(retriever: RetrieverPort, question: Question): RetrieverPort {
  return { search: (query, options = {}) => retriever.search(query, { ...options, questionId: question.id }) };
}
