export { CorpusStore, tableName, type CorpusStoreOptions, type IngestOptions, type IngestPassagesOptions, type IngestReport, type RetrieverOptions, type ChunkRow } from './CorpusStore';
export type { CorpusManifest, ChunkLevel, CorpusSetting, SearchMode } from './CorpusManifest';
export { LanceRetriever, type RetrieverSearchOptions } from './LanceRetriever';
export { openDatasetCorpus, datasetCorpusName, type OpenDatasetCorpusOptions, type DatasetCorpus } from './openDatasetCorpus';
export { HashingEmbedder, type HashingEmbedderOptions } from './HashingEmbedder';
export { LlmReranker, type LlmRerankerOptions } from './LlmReranker';
export { reciprocalRankFusion } from './reciprocalRankFusion';
export { sqlString } from './sqlString';
export { CorpusNotFoundError, IngestError, SearchError } from './errors';
