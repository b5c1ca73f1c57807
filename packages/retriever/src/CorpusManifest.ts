export type SearchMode = 'bm25' | 'vector' | 'hybrid';
export type CorpusSetting = 'open' | 'closed';
export type ChunkLevel = 'passage' | 'sentence';

/** What a corpus holds and how it is indexed; one per corpus, stored in the database itself so any URI keeps it. */
export interface CorpusManifest {
  schemaVersion: 1;
  corpus: string;
  setting: CorpusSetting;
  /** Every source ingested into this corpus (file paths or labels), in order. */
  sources: string[];
  dataset?: string;
  layout?: string;
  levels: ChunkLevel[];
  counts: {
    /** Questions whose paragraphs are in the corpus (either setting; 0 for passages ingested without questions). */
    questions: number;
    /** Rows per level (closed: one per question and paragraph). */
    rows: Partial<Record<ChunkLevel, number>>;
    /** Distinct passages. */
    passages: number;
  };
  index: {
    fts: { column: 'search_text'; stem: boolean; removeStopWords: boolean; language: string; withPosition: boolean };
    vector?: { embedder: string; dimensions: number; distance: 'cosine'; index: 'flat' | 'IVF_FLAT' };
    /** Scalar index on question_id, for the closed setting's per-question prefilter. */
    questionIdIndex: boolean;
  };
  /**
   * Each table's version when this manifest was written (absent in manifests of earlier releases).
   * Tables found past it were left by an ingest killed before its end, and the next ingest restores them.
   */
  versions?: Partial<Record<ChunkLevel, number>>;
  /** Ingests that wrote to the corpus (re-ingesting an input it already holds writes nothing). */
  ingests: number;
  /** Fingerprints of the inputs ingested (most recent last, up to 20): the same input again is a no-op. */
  inputs?: string[];
  createdAt: string;
  updatedAt: string;
}
