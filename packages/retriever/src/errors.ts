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

/**
 * The corpus store cannot be read: a data or index file deleted or truncated, a table whose versions
 * are gone, a path that is a regular file. `reason` is short and in words (no LanceDB internals);
 * `advice` says how to rebuild (the runner names its own command). `cause` keeps LanceDB's error.
 */
export class CorpusStoreDamagedError extends MultihopError {
  constructor(
    readonly uri: string,
    readonly reason: string,
    readonly corpus?: string,
    options?: { cause?: unknown; advice?: string },
  ) {
    super(
      'STORE_DAMAGED',
      `the corpus store at ${uri} is damaged (${reason}); ${options?.advice ?? `rebuild ${corpus ? `corpus "${corpus}"` : 'it'} by ingesting again with \`rebuild: true\`, or delete ${uri} and ingest again`}`,
      options,
    );
  }
}

/** Another process kept the store's writer lock longer than this ingest would wait. */
export class CorpusStoreBusyError extends MultihopError {
  constructor(message: string) {
    super('STORE_BUSY', message);
  }
}
