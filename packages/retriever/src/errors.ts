import { MultihopError } from '@multihop/core';

/** The named corpus has no manifest in this database; lists the corpora that do exist. */
export class CorpusNotFoundError extends MultihopError {
  constructor(
    readonly corpus: string,
    readonly available: string[],
  ) {
    super('CORPUS_NOT_FOUND', `corpus "${corpus}" not found; available: ${available.length ? available.join(', ') : '(none — ingest one first)'}`);
  }
}

/** An ingest failed and was rolled back; `cause` holds the original error. */
export class IngestError extends MultihopError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INGEST', message, options);
  }
}

/** LanceDB failed to answer a search; names the corpus, mode and query, keeps the original as `cause`. */
export class SearchError extends MultihopError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SEARCH', message, options);
  }
}
