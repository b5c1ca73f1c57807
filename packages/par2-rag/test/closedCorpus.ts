import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question, RetrieverPort } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { sharedDatasetsDir } from '@multihop/testing';
import { CorpusStore, type LanceRetriever } from '@multihop/retriever';

/** A real LanceDB corpus on disk: the first `limit` HotpotQA dev questions, closed setting. */
export async function hotpotClosedCorpus(limit: number): Promise<{ questions: Question[]; retriever: LanceRetriever; close(): void }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const dataset = await loadDataset('hotpotqa-dev', { limit });
  const store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'multihop-par2-')) });
  await store.ingest(dataset, { setting: 'closed' });
  const retriever = await store.retriever('hotpotqa-dev-closed');
  return { questions: dataset.questions, retriever, close: () => store.close() };
}

/** The closed (distractor) setting: every search restricted to one question's own paragraphs. */
export function scopedTo(retriever: RetrieverPort, question: Question, latencyMs = 0): RetrieverPort {
  return {
    async search(query, options = {}) {
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      return retriever.search(query, { ...options, questionId: question.id });
    },
  };
}
