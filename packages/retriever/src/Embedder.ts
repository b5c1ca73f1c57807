/** Turns texts into vectors for vector and hybrid search. */
export interface Embedder {
  /** Stable id recorded in the corpus manifest; a corpus embedded by one embedder cannot be searched with another. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
