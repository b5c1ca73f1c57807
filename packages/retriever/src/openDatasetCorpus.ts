import { loadDataset, type Dataset, type LoadDatasetOptions } from '@multihop/datasets';
import type { CorpusSetting } from './CorpusManifest';
import { CorpusStore, type IngestOptions, type IngestReport, type RetrieverOptions } from './CorpusStore';
import type { LanceRetriever } from './LanceRetriever';

export interface OpenDatasetCorpusOptions {
  /** `closed` (each question's own paragraphs) or `open` (all pooled). Default `open`. */
  setting?: CorpusSetting;
  /** The database: a directory or any LanceDB URI. Default `.multihop/lancedb` in the working directory. */
  uri?: string;
  /** Passed to loadDataset (`limit`, `layout`, `corpus`, ...). */
  load?: LoadDatasetOptions;
  /** Passed to ingest (`levels`, `embedder`, ...). */
  ingest?: Omit<IngestOptions, 'setting'>;
  /** Passed to the retriever (`mode`, `embedder`, `reranker`). */
  retriever?: RetrieverOptions;
}

export interface DatasetCorpus {
  dataset: Dataset;
  store: CorpusStore;
  corpus: string;
  report: IngestReport;
  retriever: LanceRetriever;
  close(): void;
}

/**
 * A dataset made searchable in one call: load it (a shared name or a path), ingest its
 * paragraphs (idempotent: a second call adds nothing), open a retriever. For a question of a
 * closed corpus, search through `retriever.forQuestion(question.id)`.
 */
export async function openDatasetCorpus(nameOrPath: string, options: OpenDatasetCorpusOptions = {}): Promise<DatasetCorpus> {
  const dataset = await loadDataset(nameOrPath, options.load);
  const store = await CorpusStore.open(options.uri ? { uri: options.uri } : {});
  try {
    const report = await store.ingest(dataset, { ...options.ingest, setting: options.setting ?? 'open' });
    const retriever = await store.retriever(report.corpus, options.retriever);
    return { dataset, store, corpus: report.corpus, report, retriever, close: () => store.close() };
  } catch (error) {
    store.close();
    throw error;
  }
}
