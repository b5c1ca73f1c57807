import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider, ProviderRequest, ProviderResponse, Question } from '@multihop/core';
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

export function questionStarting(questions: readonly Question[], prefix: string): Question {
  const found = questions.find((q) => q.text.startsWith(prefix));
  if (!found) throw new Error(`no train question starts with "${prefix}"`);
  return found;
}

export interface TimedCall {
  role: string;
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
      calls.push({ role: request.role, vars: request.vars, start, end: performance.now() });
      return response;
    },
  };
}
