import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider, ProviderRequest, ProviderResponse, Question, RetrieverPort } from '@multihop/core';
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

/** The question of `questions` whose text starts with `prefix` (tests name the train questions they use). */
export function questionStarting(questions: readonly Question[], prefix: string): Question {
  const found = questions.find((q) => q.text.startsWith(prefix));
  if (!found) throw new Error(`no train question starts with "${prefix}"`);
  return found;
}

export interface TimedCall {
  role: string;
  promptId: string;
  vars: Record<string, unknown>;
  start: number;
  end: number;
}

/** Wraps a provider so every call's start and end times are kept (to show which calls overlapped). */
export function timed(provider: Provider): Provider & { calls: TimedCall[] } {
  const calls: TimedCall[] = [];
  return {
    id: provider.id,
    calls,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      const start = performance.now();
      const response = await provider.generate(request);
      calls.push({ role: request.role, promptId: request.promptId, vars: request.vars, start, end: performance.now() });
      return response;
    },
  };
}
