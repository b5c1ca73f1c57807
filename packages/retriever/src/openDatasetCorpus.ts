import { loadDataset, type Dataset, type LoadDatasetOptions } from '@multihop/datasets';
import type { CorpusSetting } from './CorpusManifest';
import { CorpusStore, type CorpusStoreOptions, type IngestOptions, type IngestReport, type RetrieverOptions } from './CorpusStore';
import { datasetCorpusName } from './corpusName';
import type { LanceRetriever } from './LanceRetriever';

export interface OpenDatasetCorpusOptions {
  /** `closed` (each question's own paragraphs) or `open` (all pooled). Default `open`. */
  setting?: CorpusSetting;
  /** The database: a directory or any LanceDB URI. Default `.multihop/lancedb` in the working directory. */
  uri?: string;
  /** LanceDB object-store options for a remote `uri` (CorpusStoreOptions.storageOptions). */
  storageOptions?: CorpusStoreOptions['storageOptions'];
  /** Passed to loadDataset (`limit`, `layout`, `corpus`, `skipInvalid`, ...); its `setting` defaults to this one's. */
  load?: LoadDatasetOptions;
  /** Passed to ingest (`levels`, `embedder`, ...); the corpus name defaults to datasetCorpusName(). */
  ingest?: Omit<IngestOptions, 'setting'>;
  /** Passed to the retriever (`mode`, `embedder`, `reranker`). */
  retriever?: RetrieverOptions;
  /**
   * Read the corpus's tables through once opened (CorpusStore.verify), so a damaged store is an error
   * now rather than a failed search later. Default true.
   */
  verify?: boolean;
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
 * A dataset made searchable in one call: load it (a shared name, a path, or an already loaded
 * Dataset), ingest its paragraphs (idempotent: a second call adds nothing; `ingest.rebuild` drops the
 * corpus first), check its files (`verify`), open a retriever. For a
 * question of a closed corpus, search through `retriever.forQuestion(question.id)`.
 */
export async function openDatasetCorpus(dataset: string | Dataset, options: OpenDatasetCorpusOptions = {}): Promise<DatasetCorpus> {
  const setting = options.setting ?? 'open';
  const loaded = typeof dataset === 'string' ? await loadDataset(dataset, { setting, ...options.load }) : dataset;
  const store = await CorpusStore.open({ uri: options.uri, storageOptions: options.storageOptions });
  try {
    const report = await store.ingest(loaded, { corpus: datasetCorpusName(loaded, setting), ...options.ingest, setting });
    if (options.verify !== false) await store.verify(report.corpus);
    const retriever = await store.retriever(report.corpus, options.retriever);
    return { dataset: loaded, store, corpus: report.corpus, report, retriever, close: () => store.close() };
  } catch (error) {
    store.close();
    throw error;
  }
}
