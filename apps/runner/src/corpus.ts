import { ConfigError, type Question, type RetrieverPort } from '@multihop/core';
import { loadDataset, type Dataset } from '@multihop/datasets';
import { CorpusStore, type IngestReport, type LanceRetriever } from '@multihop/retriever';

export type Setting = 'closed' | 'open';

export interface OpenedCorpus {
  dataset: Dataset;
  store: CorpusStore;
  corpus: string;
  setting: Setting;
  retriever: LanceRetriever;
  report: IngestReport;
  /** The retriever a run on `question` uses: restricted to its own paragraphs in the closed setting. */
  retrieverFor(question: Question): RetrieverPort;
  close(): void;
}

export function parseSetting(value: string | undefined, fallback: Setting): Setting {
  if (value === undefined) return fallback;
  if (value !== 'closed' && value !== 'open') throw new ConfigError(`--setting must be closed or open, got "${value}"`);
  return value;
}

/**
 * Loads a dataset (a shared name or a path), makes sure its corpus is in the LanceDB store
 * (ingest is idempotent: a second run adds nothing), and opens a retriever on it.
 */
export async function openCorpus(options: { dataset: string; setting: Setting; db?: string }): Promise<OpenedCorpus> {
  const dataset = await loadDataset(options.dataset);
  if (options.setting === 'closed' && Object.keys(dataset.contexts).length === 0) {
    throw new ConfigError(`dataset ${dataset.name} has no per-question paragraphs (plain layout): use --setting open`);
  }
  const store = await CorpusStore.open(options.db ? { uri: options.db } : {});
  const report = await store.ingest(dataset, { setting: options.setting });
  const retriever = await store.retriever(report.corpus);
  return {
    dataset,
    store,
    corpus: report.corpus,
    setting: options.setting,
    retriever,
    report,
    retrieverFor: (question) =>
      options.setting === 'closed'
        ? { search: (query, searchOptions = {}) => retriever.search(query, { ...searchOptions, questionId: question.id }) }
        : retriever,
    close: () => store.close(),
  };
}
