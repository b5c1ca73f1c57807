import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Question, RetrieverPort } from '@multihop/core';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';

/** A real LanceDB corpus on disk: the first `limit` HotpotQA dev questions, closed setting. */
export async function hotpotClosedCorpus(limit: number): Promise<DatasetCorpus & { questions: Question[] }> {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const corpus = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri: await mkdtemp(join(tmpdir(), 'multihop-par2-')), load: { limit } });
  return { ...corpus, questions: corpus.dataset.questions };
}

/** One question's view of the closed corpus, each search delayed by `latencyMs` so parallel branches visibly overlap. */
export function scopedTo(corpus: DatasetCorpus, question: Question, latencyMs = 0): RetrieverPort {
  const own = corpus.retriever.forQuestion(question.id);
  if (!latencyMs) return own;
  return {
    async search(query, options) {
      await new Promise((r) => setTimeout(r, latencyMs));
      return own.search(query, options);
    },
  };
}
