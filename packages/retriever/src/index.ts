export { CorpusStore, tableName, type CorpusStoreOptions, type IngestOptions, type IngestProgress, type IngestPassagesOptions, type IngestedPassage, type IngestReport, type RetrieverOptions, type ChunkRow } from './CorpusStore';
export type { CorpusManifest, ChunkLevel, CorpusSetting, SearchMode } from './CorpusManifest';
export { LanceRetriever, type RetrieverSearchOptions } from './LanceRetriever';
export { openDatasetCorpus, type OpenDatasetCorpusOptions, type DatasetCorpus } from './openDatasetCorpus';
export { datasetCorpusName } from './corpusName';
export { HashingEmbedder, type HashingEmbedderOptions } from './HashingEmbedder';
// The LLM reranker lives beside its prompt, in @multihop/prompts (methods rerank with it without LanceDB); re-exported here, where it was first.
export { LlmReranker, type LlmRerankerOptions } from '@multihop/prompts';
export { reciprocalRankFusion } from './reciprocalRankFusion';
export { bm25Collection, rankByBm25, type Bm25Collection } from './questionBm25';
export { sqlString } from './sqlString';
export { checkStorageOptions, type StorageOptions } from './storageOptions';
export { CorpusNotFoundError, CorpusStoreBusyError, CorpusStoreDamagedError, IngestError, SearchError } from './errors';
export { WRITER_LOCK } from './writerLock';
