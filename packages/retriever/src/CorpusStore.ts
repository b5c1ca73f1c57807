import { createHash } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, InputError, MultihopError } from '@multihop/core';
import type { CorpusPassage, Dataset } from '@multihop/datasets';
import { sentenceId } from '@multihop/datasets';
import { indexableText, splitSentences } from '@multihop/lexical';
import type { ChunkLevel, CorpusManifest, CorpusSetting, SearchMode } from './CorpusManifest';
import type { Embedder } from '@multihop/core';
import { datasetCorpusName } from './corpusName';
import { CorpusNotFoundError, CorpusStoreDamagedError, IngestError } from './errors';
import { arrow, lancedb, type Connection, type Table } from './lance';
import { LanceRetriever } from './LanceRetriever';
import type { Reranker } from '@multihop/core';
import { sqlString } from './sqlString';
import { damageReason, plainLanceMessage } from './storeHealth';
import { acquireWriterLock, writerActive } from './writerLock';
import { checkStorageOptions, type StorageOptions } from './storageOptions';

export interface CorpusStoreOptions {
  /** A directory (embedded LanceDB) or any LanceDB URI (`s3://…`, `db://…`). Default: `.multihop/lancedb` in the working directory. */
  uri?: string;
  /**
   * Options of LanceDB's object store for a remote `uri` (credentials, `endpoint`, `region`,
   * `allow_http`, `timeout`, …; see docs/retrieval.md). Checked before connecting: an unknown key
   * or a value of the wrong form is an InputError naming the field. Without them, the store reads
   * the provider's usual environment variables (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT`, …).
   */
  storageOptions?: StorageOptions;
}

export interface IngestOptions {
  /** Corpus name; default `<dataset>-<setting>`, e.g. `hotpotqa-dev-open`. */
  corpus?: string;
  /**
   * `open` pools every paragraph once; `closed` keeps each question's own paragraphs, searched per
   * question, BM25 with the question's own paragraphs as its collection (README, "BM25 in the closed
   * setting"). Default `open`.
   */
  setting?: CorpusSetting;
  /** Chunk levels to index. Default both. */
  levels?: ChunkLevel[];
  /** Adds a vector column for vector and hybrid search. The same embedder must be used on every ingest of a corpus. */
  embedder?: Embedder;
  /** Rows per write. Default 10,000. */
  batchSize?: number;
  /** Build an IVF_FLAT vector index once a table has this many rows; below it flat search is exact and fast enough. Default 100,000. */
  vectorIndexMinRows?: number;
  /**
   * Drop the corpus (its tables and manifest) first and ingest it anew: the way to repair a corpus
   * whose files were deleted or damaged. Other corpora of the store are left as they are.
   */
  rebuild?: boolean;
  /** Told what the ingest is doing: waiting for another writer, rows written per level, indexing. */
  onProgress?: (progress: IngestProgress) => void;
  /** How long to wait for another process writing the same local store (ms). Default 10 minutes. */
  waitForWriterMs?: number;
  /**
   * How long a table version stays on disk after a newer one replaced it (ms). Default 1 hour.
   * A retriever open in another process reads the version that was the latest when it opened (or
   * last searched); deleting its files under it made its searches fail. Each writing ingest
   * deletes the versions replaced longer ago than this, so versions do not pile up.
   */
  keepOldVersionsMs?: number;
}

/** What an ingest reports as it goes (IngestOptions.onProgress). Nothing is reported for an input already ingested. */
export type IngestProgress =
  | { phase: 'waiting'; corpus: string; message: string }
  /** The corpus's tables held rows its manifest does not count (an ingest killed before its end): they were restored to the manifest's versions. */
  | { phase: 'repair'; corpus: string; message: string }
  | { phase: 'start'; corpus: string; rebuild: boolean; totals: Partial<Record<ChunkLevel, number>> }
  | { phase: 'write'; corpus: string; level: ChunkLevel; done: number; total?: number }
  | { phase: 'index'; corpus: string }
  | { phase: 'done'; corpus: string; ms: number };

export interface IngestPassagesOptions extends Omit<IngestOptions, 'setting'> {
  corpus: string;
  /** Where the passages came from, for the manifest. */
  source: string;
}

export interface IngestReport {
  corpus: string;
  /** Rows this ingest added per level (0 on a re-run). */
  added: Partial<Record<ChunkLevel, number>>;
  /** Rows already in the corpus under the same key whose text this ingest replaced (an edited passage), per level. */
  updated: Partial<Record<ChunkLevel, number>>;
  /** Reading, embedding and writing the rows (ms); embedMs of it was the embedder's. */
  ingestMs: number;
  embedMs: number;
  /** Compaction and index builds after the writes, once per ingest (ms). */
  indexMs: number;
  manifest: CorpusManifest;
}

export interface RetrieverOptions {
  /** Default search mode. Default `bm25`. */
  mode?: SearchMode;
  /** Needed for vector and hybrid; must be the embedder the corpus was ingested with. */
  embedder?: Embedder;
  /** Applied to every search unless a search turns it off. */
  reranker?: Reranker;
}

/** One row of a chunk table. */
export interface ChunkRow {
  row_key: string;
  id: string;
  passage_id: string;
  title: string;
  text: string;
  /** -1 for passage rows. */
  sentence: number;
  /** '' in the open setting. */
  question_id: string;
  /** What BM25 and the embedder see: the title carries the entity a paragraph is about. */
  search_text: string;
  vector?: number[];
}

const MANIFESTS = '_multihop_manifests';
/** The manifest format this code writes and reads; a higher one is a newer @multihop/retriever's. */
const SCHEMA_VERSION = 1;
const LEVELS: readonly ChunkLevel[] = ['passage', 'sentence'];
const SETTINGS: readonly CorpusSetting[] = ['open', 'closed'];
/** Default of IngestOptions.keepOldVersionsMs: longer than any single search or eval step, short enough that old files go the same day. */
const KEEP_OLD_VERSIONS_MS = 60 * 60_000;
/** Input fingerprints a manifest remembers (most recent last). */
const MAX_INPUTS = 20;
const FTS = { column: 'search_text', stem: true, removeStopWords: true, language: 'English', withPosition: false } as const;
// A closed corpus holds one row per (question, paragraph); the separator cannot occur in either id.
const KEY_SEPARATOR = '\u241f';

/** What an ingest records about its input in the manifest. */
interface IngestMeta {
  source: string;
  dataset?: string;
  layout?: string;
  questions: number;
  fingerprint?: string;
  totals?: Partial<Record<ChunkLevel, number>>;
}

/**
 * The corpus store: LanceDB tables per corpus and chunk level, ingested idempotently (rows are
 * keyed, re-runs insert nothing twice), indexed for BM25 (stemming, stop words) and optionally
 * vectors, each corpus described by a manifest kept in the database itself.
 */
export class CorpusStore {
  /** Every table handle this store opened, closed with it. */
  private readonly opened = new Set<Table>();

  private constructor(
    private readonly db: Connection,
    readonly uri: string,
  ) {}

  private async openTable(name: string): Promise<Table> {
    const table = await this.db.openTable(name);
    this.opened.add(table);
    return table;
  }

  static async open(options: CorpusStoreOptions = {}): Promise<CorpusStore> {
    const uri = resolveUri(options.uri);
    const storageOptions = options.storageOptions ? checkStorageOptions(options.storageOptions) : undefined;
    if (isLocal(uri) && existsSync(uri) && !statSync(uri).isDirectory()) {
      throw new CorpusStoreDamagedError(uri, 'it is a regular file, not a directory', undefined, {
        advice: `move the file away or give another directory; the store is created there on the next ingest`,
      });
    }
    try {
      return new CorpusStore(await lancedb.connect(uri, storageOptions ? { storageOptions } : {}), uri);
    } catch (cause) {
      throw storeError(uri, cause);
    }
  }

  /** Ingests a dataset's paragraphs in the open or closed setting. */
  async ingest(dataset: Dataset, options: IngestOptions = {}): Promise<IngestReport> {
    const setting = options.setting ?? 'open';
    const levels = options.levels ?? ['passage', 'sentence'];
    const corpus = options.corpus ?? datasetCorpusName(dataset, setting);
    const byId = new Map(dataset.passages.map((p) => [p.id, p]));
    let rowsFor: (level: ChunkLevel) => ChunkRow[];
    if (setting === 'closed') {
      if (Object.keys(dataset.contexts).length === 0) {
        throw new InputError(`dataset ${dataset.name} has no per-question paragraphs (layout ${dataset.layout}); use the open setting`, { file: dataset.source, field: 'setting' });
      }
      rowsFor = (level) =>
        dataset.questions.flatMap((q) =>
          (dataset.contexts[q.id] ?? []).flatMap((id) => {
            const passage = byId.get(id);
            return passage ? chunkRows(passage, level, q.id) : [];
          }),
        );
    } else {
      rowsFor = (level) => dataset.passages.flatMap((p) => chunkRows(p, level, ''));
    }
    const batchSize = options.batchSize ?? 10_000;
    const rows = new Map(levels.map((level) => [level, rowsFor(level)] as const));
    return this.write(corpus, setting, levels, (level) => inBatches(rows.get(level) ?? [], batchSize), options, {
      fingerprint: fingerprint(setting, options.embedder, rows),
      source: dataset.source,
      dataset: dataset.name,
      layout: dataset.layout,
      questions: dataset.questions.length,
      totals: Object.fromEntries([...rows].map(([level, list]) => [level, list.length])),
    });
  }

  /**
   * Ingests passages that come without questions (a corpus file, a synthetic corpus) into an open
   * corpus. Pass a list, or a function returning batches, to stream corpora too big to hold at once
   * (it is called once per level).
   */
  async ingestPassages(passages: Iterable<IngestedPassage> | (() => AsyncIterable<IngestedPassage[]>), options: IngestPassagesOptions): Promise<IngestReport> {
    const levels = options.levels ?? ['passage', 'sentence'];
    if (typeof passages === 'function') {
      // A stream is only known once read: it is always written (mergeInsert still adds no row twice).
      const batchesFor = (level: ChunkLevel) => mapBatches(passages(), (batch) => batch.flatMap((p) => chunkRows(p, level, '')));
      return this.write(options.corpus, 'open', levels, batchesFor, options, { source: options.source, questions: 0 });
    }
    const list = [...passages];
    const rows = new Map(levels.map((level) => [level, list.flatMap((p) => chunkRows(p, level, ''))] as const));
    return this.write(options.corpus, 'open', levels, (level) => inBatches(rows.get(level) ?? [], options.batchSize ?? 10_000), options, {
      source: options.source,
      questions: 0,
      fingerprint: fingerprint('open', options.embedder, rows),
      totals: Object.fromEntries([...rows].map(([level, list]) => [level, list.length])),
    });
  }

  /** A retriever over one corpus; implements core's RetrieverPort. */
  async retriever(corpus: string, options: RetrieverOptions = {}): Promise<LanceRetriever> {
    const manifest = await this.manifest(corpus);
    if (!manifest) throw new CorpusNotFoundError(corpus, await this.corpora());
    const tables: Partial<Record<ChunkLevel, Table>> = {};
    try {
      for (const level of manifest.levels) tables[level] = await this.openTable(tableName(corpus, level));
    } catch (cause) {
      throw storeError(this.uri, cause, corpus, true);
    }
    return new LanceRetriever(tables, manifest, { ...options, storeUri: this.uri });
  }

  async manifest(corpus: string): Promise<CorpusManifest | undefined> {
    try {
      const table = await this.manifestTable(false);
      if (!table) return undefined;
      const rows = await table.query().where(`corpus = ${sqlString(corpus)}`).limit(1).toArray();
      const json = rows[0]?.json;
      return typeof json === 'string' ? parseManifest(json, corpus, this.uri) : undefined;
    } catch (cause) {
      throw storeError(this.uri, cause, corpus);
    }
  }

  /** Names of the corpora in this database. */
  async corpora(): Promise<string[]> {
    try {
      const table = await this.manifestTable(false);
      if (!table) return [];
      const rows = await table.query().select(['corpus']).toArray();
      return rows.map((r) => String(r.corpus)).sort();
    } catch (cause) {
      throw storeError(this.uri, cause);
    }
  }

  /**
   * Reads every table of a corpus through (one narrow column, and one full-text query): a data or
   * index file deleted or cut short is a CorpusStoreDamagedError now, when the corpus is opened,
   * rather than a failed search in the middle of a run. Also compares each table's rows with the
   * manifest's count (unless another process is writing the store right now): more rows are what an
   * ingest killed before its end left, a CorpusStoreDamagedError too (an ingest restores them).
   * 43–50 ms for the closed hotpotqa-dev corpus (24,673 rows) at load average 4 on 2 cores, most of
   * it reading the column.
   */
  async verify(corpus: string): Promise<void> {
    const manifest = await this.manifest(corpus);
    if (!manifest) throw new CorpusNotFoundError(corpus, await this.corpora());
    // During another process's ingest the tables are legitimately ahead of the manifest.
    const countsComparable = isLocal(this.uri) && !writerActive(this.uri);
    for (const level of manifest.levels) {
      let rows: number | undefined;
      try {
        const table = await this.openTable(tableName(corpus, level));
        if (countsComparable) rows = await table.countRows();
        const first = await table.query().select(['title']).limit(1).toArray();
        await table.query().select(['sentence']).toArray();
        const word = String(first[0]?.title ?? '').split(/\W+/).find((w) => w.length > 2);
        if (word) await table.query().fullTextSearch(new lancedb.MatchQuery(word, FTS.column)).select(['id', '_score']).limit(1).toArray();
      } catch (cause) {
        throw storeError(this.uri, cause, corpus, true);
      }
      const expected = manifest.counts.rows[level];
      if (rows !== undefined && expected !== undefined && rows !== expected) {
        // A writer may have finished (new manifest) or started (lock taken) between the reads above:
        // only a mismatch that holds when read again is a killed ingest's.
        const now = await this.manifest(corpus);
        if (writerActive(this.uri) || now?.updatedAt !== manifest.updatedAt) continue;
        throw new CorpusStoreDamagedError(
          this.uri,
          `table ${tableName(corpus, level)} holds ${rows} rows where the manifest of corpus "${corpus}" counts ${expected}; an ingest was probably killed before its end`,
          corpus,
          { advice: `ingest corpus "${corpus}" again (any input: the ingest restores its tables to the manifest first), or rebuild it with \`rebuild: true\`` },
        );
      }
    }
  }

  /** The underlying LanceDB table of a corpus level, for direct queries (the benchmark's baseline). */
  async table(corpus: string, level: ChunkLevel = 'passage'): Promise<Table> {
    if (!(await this.manifest(corpus))) throw new CorpusNotFoundError(corpus, await this.corpora());
    return this.openTable(tableName(corpus, level));
  }

  /** Removes a corpus: its tables and its manifest. */
  async drop(corpus: string): Promise<void> {
    // Under a name whose tables another corpus owns (`a_b` beside `a.b`), dropping would take that corpus's tables.
    await this.refuseSharedTables(corpus);
    await this.dropTables(corpus);
  }

  /** drop() once its name is known to be its own. */
  private async dropTables(corpus: string): Promise<void> {
    const names = new Set(await this.db.tableNames());
    for (const level of ['passage', 'sentence'] as const) {
      const name = tableName(corpus, level);
      if (names.has(name)) await this.db.dropTable(name);
    }
    const manifests = await this.manifestTable(false);
    if (manifests) await manifests.delete(`corpus = ${sqlString(corpus)}`);
  }

  /** Closes every table handle it opened, then the connection. */
  close(): void {
    for (const table of this.opened) if (table.isOpen()) table.close();
    this.opened.clear();
    this.db.close();
  }

  private async write(
    corpus: string,
    setting: CorpusSetting,
    levels: ChunkLevel[],
    batchesFor: (level: ChunkLevel) => Iterable<ChunkRow[]> | AsyncIterable<ChunkRow[]>,
    options: IngestOptions,
    meta: IngestMeta,
  ): Promise<IngestReport> {
    validateCorpusName(corpus);
    // One writer at a time on a local store; the manifest is read once the lock is held, so a
    // writer that waited finds what the other one ingested.
    const release = isLocal(this.uri)
      ? await acquireWriterLock(this.uri, corpus, {
          waitMs: options.waitForWriterMs ?? 10 * 60_000,
          notice: (message) => options.onProgress?.({ phase: 'waiting', corpus, message }),
        })
      : () => undefined;
    try {
      // Before a rebuild drops anything, and before anything is written: the tables may be another corpus's.
      await this.refuseSharedTables(corpus);
      if (options.rebuild) await this.dropForRebuild(corpus);
      return await this.writeLocked(corpus, setting, levels, batchesFor, options, meta);
    } finally {
      release();
    }
  }

  /** Drops a corpus even when its files are damaged: what LanceDB cannot drop is deleted from disk. */
  private async dropForRebuild(corpus: string): Promise<void> {
    try {
      await this.dropTables(corpus);
      return;
    } catch (cause) {
      if (!isLocal(this.uri)) throw storeError(this.uri, cause, corpus);
    }
    for (const level of ['passage', 'sentence'] as const) rmSync(join(this.uri, `${tableName(corpus, level)}.lance`), { recursive: true, force: true });
    try {
      const manifests = await this.manifestTable(false);
      if (manifests) await manifests.delete(`corpus = ${sqlString(corpus)}`);
    } catch {
      // The manifest table itself is damaged: it goes too. Other corpora's tables stay, and their
      // next ingest re-creates their manifests (their rows are keyed: nothing is added twice).
      rmSync(join(this.uri, `${MANIFESTS}.lance`), { recursive: true, force: true });
    }
  }

  private async dropLeftovers(corpus: string): Promise<void> {
    const names = new Set(await this.db.tableNames());
    for (const level of ['passage', 'sentence'] as const) {
      const name = tableName(corpus, level);
      if (!names.has(name)) continue;
      try {
        await this.db.dropTable(name);
      } catch (cause) {
        if (!isLocal(this.uri)) throw storeError(this.uri, cause, corpus);
        rmSync(join(this.uri, `${name}.lance`), { recursive: true, force: true });
      }
    }
  }

  private async writeLocked(
    corpus: string,
    setting: CorpusSetting,
    levels: ChunkLevel[],
    batchesFor: (level: ChunkLevel) => Iterable<ChunkRow[]> | AsyncIterable<ChunkRow[]>,
    options: IngestOptions,
    meta: IngestMeta,
  ): Promise<IngestReport> {
    const previous = await this.manifest(corpus);
    checkCompatible(corpus, previous, setting, options.embedder);
    // Only a local store has the writer lock: on a remote one, tables past the manifest may be
    // another process's ingest in progress, not a killed one's leftovers.
    if (previous && isLocal(this.uri)) await this.restoreToManifest(corpus, previous, options);
    // Tables of a corpus without a manifest are what an ingest killed before its end left behind
    // (kill -9 can even leave a table created but without a version, which LanceDB cannot open):
    // no one can search them, so they go, and this ingest starts afresh.
    if (!previous) await this.dropLeftovers(corpus);
    const started = performance.now();
    // (The fingerprint covers the levels: one found was ingested with these very levels.)
    if (previous && meta.fingerprint && previous.inputs?.includes(meta.fingerprint)) {
      // These very rows were ingested into this corpus before: open it as it is, writing nothing
      // (no table version, no manifest update), as every CLI start on an unchanged corpus does.
      const none = Object.fromEntries(levels.map((level) => [level, 0])) as Partial<Record<ChunkLevel, number>>;
      return { corpus, added: none, updated: none, ingestMs: performance.now() - started, embedMs: 0, indexMs: 0, manifest: previous };
    }
    options.onProgress?.({ phase: 'start', corpus, rebuild: options.rebuild === true, totals: meta.totals ?? {} });
    const existing = new Set(await this.db.tableNames());
    // Versions to restore if anything fails, so a failed ingest leaves nothing half-written.
    const undo: Array<() => Promise<void>> = [];
    const added: Partial<Record<ChunkLevel, number>> = {};
    const updated: Partial<Record<ChunkLevel, number>> = {};
    const tables: Partial<Record<ChunkLevel, Table>> = {};
    let embedMs = 0;
    try {
      for (const level of levels) {
        const name = tableName(corpus, level);
        // Keys seen in this run: inputs may repeat a passage (a corpus file listing it twice).
        const seen = new Set<string>();
        let table: Table;
        let fresh = false;
        if (existing.has(name)) {
          table = await this.openTable(name);
          const version = await table.version();
          undo.push(async () => {
            await table.checkout(version);
            await table.restore();
          });
        } else {
          table = await this.db.createEmptyTable(name, chunkSchema(options.embedder?.dimensions));
          this.opened.add(table);
          fresh = true;
          undo.push(() => this.db.dropTable(name));
        }
        tables[level] = table;
        let count = 0;
        let changed = 0;
        let written = 0;
        for await (const rows of batchesFor(level)) {
          const batch = rows.filter((r) => (seen.has(r.row_key) ? false : (seen.add(r.row_key), true)));
          if (batch.length === 0) continue;
          const embedStarted = performance.now();
          // The embedder reads the row's own words (title and text), not the index's folded form of them.
          const vectors = options.embedder ? await embedFlat(options.embedder, batch.map(embeddedText)) : undefined;
          embedMs += performance.now() - embedStarted;
          const data = arrowBatch(batch, vectors, options.embedder?.dimensions);
          if (fresh) {
            // A fresh table has nothing to collide with and rows are deduplicated above: plain appends are faster.
            await table.add(data);
            count += batch.length;
          } else {
            // A row whose key is there already keeps it, unless its text changed (an edited passage): then the input's text replaces it.
            const result = await table.mergeInsert('row_key').whenMatchedUpdateAll({ where: 'target.search_text != source.search_text' }).whenNotMatchedInsertAll().execute(data);
            count += result.numInsertedRows;
            changed += result.numUpdatedRows;
          }
          written += batch.length;
          options.onProgress?.({ phase: 'write', corpus, level, done: written, total: meta.totals?.[level] });
        }
        added[level] = count;
        updated[level] = changed;
      }
      const ingestMs = performance.now() - started;

      options.onProgress?.({ phase: 'index', corpus });
      const indexStarted = performance.now();
      let vectorIndex: 'flat' | 'IVF_FLAT' = previous?.index.vector?.index ?? 'flat';
      let questionIdIndex = false;
      const rowCounts: Partial<Record<ChunkLevel, number>> = {};
      for (const level of levels) {
        const table = tables[level];
        if (!table) continue;
        const indices = await table.listIndices();
        const has = (column: string) => indices.some((ix) => ix.columns.includes(column));
        // Compaction merges the batch fragments and brings existing indices up to date with the new rows.
        if ((added[level] ?? 0) > 0 || !has(FTS.column)) await table.optimize();
        if (!has(FTS.column)) {
          await table.createIndex(FTS.column, {
            config: lancedb.Index.fts({ withPosition: FTS.withPosition, stem: FTS.stem, removeStopWords: FTS.removeStopWords, language: FTS.language }),
          });
        }
        rowCounts[level] = await table.countRows();
        if (setting === 'closed') {
          if (!has('question_id')) await table.createIndex('question_id', { config: lancedb.Index.btree() });
          questionIdIndex = true;
        }
        if (options.embedder && !has('vector') && (rowCounts[level] ?? 0) >= (options.vectorIndexMinRows ?? 100_000)) {
          await table.createIndex('vector', { config: lancedb.Index.ivfFlat({ distanceType: 'cosine' }) });
          vectorIndex = 'IVF_FLAT';
        }
      }
      const indexMs = performance.now() - indexStarted;
      // The versions this manifest describes: a later ingest killed before its end leaves the tables
      // past them, and the next ingest restores them (restoreToManifest).
      const versions: Partial<Record<ChunkLevel, number>> = { ...previous?.versions };
      for (const level of levels) {
        const table = tables[level];
        if (table) versions[level] = await table.version();
      }

      const now = new Date().toISOString();
      const passageTable = tables.passage;
      const manifest: CorpusManifest = {
        schemaVersion: SCHEMA_VERSION,
        corpus,
        setting,
        sources: [...new Set([...(previous?.sources ?? []), meta.source])],
        dataset: meta.dataset ?? previous?.dataset,
        layout: meta.layout ?? previous?.layout,
        levels: [...new Set([...(previous?.levels ?? []), ...levels])],
        counts: {
          questions: Math.max(previous?.counts.questions ?? 0, meta.questions),
          rows: { ...previous?.counts.rows, ...rowCounts },
          passages: passageTable ? await countDistinctPassages(passageTable, setting) : (previous?.counts.passages ?? 0),
        },
        index: {
          fts: { ...FTS },
          vector: options.embedder ? { embedder: options.embedder.id, dimensions: options.embedder.dimensions, distance: 'cosine', index: vectorIndex } : undefined,
          questionIdIndex,
        },
        versions,
        ingests: (previous?.ingests ?? 0) + 1,
        inputs: meta.fingerprint ? [...(previous?.inputs ?? []).filter((f) => f !== meta.fingerprint), meta.fingerprint].slice(-MAX_INPUTS) : previous?.inputs,
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
      };
      const manifests = await this.manifestTable(true);
      await manifests.mergeInsert('corpus').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([{ corpus, json: JSON.stringify(manifest) }]);
      // The ingest succeeded: the versions it (and earlier ingests) left behind are only of use to
      // readers still on them (a retriever open in another process). Those replaced longer ago than
      // the grace period go, so versions do not pile up; the rest stay until a later ingest.
      const keepMs = options.keepOldVersionsMs ?? KEEP_OLD_VERSIONS_MS;
      for (const table of [...Object.values(tables), manifests]) await cleanupOldVersions(table, keepMs).catch(() => undefined);
      options.onProgress?.({ phase: 'done', corpus, ms: performance.now() - started });
      return { corpus, added, updated, ingestMs, embedMs, indexMs, manifest };
    } catch (cause) {
      // Writing, indexing or the manifest failed: restore every table, so nothing half-ingested is visible.
      for (const step of undo.reverse()) await step().catch(() => undefined);
      if (cause instanceof MultihopError) throw cause;
      const damaged = damageReason(cause);
      if (damaged) throw new CorpusStoreDamagedError(this.uri, damaged, corpus, { cause });
      throw new IngestError(`ingest into corpus "${corpus}" failed and was rolled back: ${plainLanceMessage((cause as Error).message)}`, { cause });
    }
  }

  /**
   * Refuses an ingest whose tables are another corpus's: table names map `.` (and any other
   * character LanceDB does not allow) to `_`, so `a.b` and `a_b` share tables, and ingesting one
   * would drop or overwrite the other's rows. Existing names stay as they are (stores on disk keep
   * working); a second corpus whose name collides is an error instead.
   */
  private async refuseSharedTables(corpus: string): Promise<void> {
    const prefix = tableName(corpus, 'passage');
    const owner = (await this.corpora()).find((other) => other !== corpus && tableName(other, 'passage') === prefix);
    if (owner) {
      throw new ConfigError(
        `corpus name "${corpus}" maps to the tables of corpus "${owner}" in the corpus store at ${this.uri} (${LEVELS.map((l) => tableName(corpus, l)).join(', ')}: ` +
          `table names turn characters other than letters, digits, _ and - into _); use another corpus name`,
      );
    }
  }

  /**
   * An ingest killed before its end (kill -9, a crash) leaves the rows it wrote in the corpus's
   * tables, past the versions its manifest describes, and an ingest of an input the manifest already
   * lists writes nothing: those rows would be searched. Called with the writer lock held (no other
   * ingest runs): tables past the manifest's versions are restored to them; a table whose rows the
   * manifest does not count and whose version cannot be restored is damage, to rebuild.
   */
  private async restoreToManifest(corpus: string, manifest: CorpusManifest, options: IngestOptions): Promise<void> {
    const names = new Set(await this.db.tableNames());
    const restored: Partial<Record<ChunkLevel, number>> = {};
    for (const level of manifest.levels) {
      const name = tableName(corpus, level);
      if (!names.has(name)) continue; // a missing table is reported as damage when opened
      let table: Table;
      const recorded = manifest.versions?.[level];
      const expected = manifest.counts.rows[level];
      let version: number;
      let rows: number;
      try {
        table = await this.openTable(name);
        version = await table.version();
        // The usual case, every time a corpus is opened: the table is at the version its manifest records.
        if (recorded !== undefined && version === recorded) continue;
        rows = await table.countRows();
      } catch (cause) {
        throw storeError(this.uri, cause, corpus, true);
      }
      if (recorded === undefined && (expected === undefined || rows === expected)) continue;
      const kept = recorded !== undefined && (await table.listVersions()).some((v) => v.version === recorded);
      if (!kept) {
        if (rows === expected) continue; // same rows, other version (a rolled-back ingest restores as a new version)
        throw new CorpusStoreDamagedError(
          this.uri,
          `table ${name} holds ${rows} rows where the manifest of corpus "${corpus}" counts ${expected ?? 'none'}; an ingest was probably killed before its end`,
          corpus,
        );
      }
      await table.checkout(recorded);
      await table.restore();
      // A restore is a new version with the recorded one's rows: the manifest records it, or the
      // next ingest would find the table past the manifest again and restore it once more.
      restored[level] = await table.version();
      options.onProgress?.({
        phase: 'repair',
        corpus,
        message: `corpus "${corpus}": table ${name} was at version ${version} (${rows} rows), past the version ${recorded} its manifest describes (an ingest killed before its end); restored it to version ${recorded} (${expected} rows)`,
      });
    }
    if (Object.keys(restored).length) {
      const updated: CorpusManifest = { ...manifest, versions: { ...manifest.versions, ...restored } };
      const manifests = await this.manifestTable(true);
      await manifests.mergeInsert('corpus').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([{ corpus, json: JSON.stringify(updated) }]);
    }
  }

  private async manifestTable(create: true): Promise<Table>;
  private async manifestTable(create: false): Promise<Table | undefined>;
  private async manifestTable(create: boolean): Promise<Table | undefined> {
    const names = await this.db.tableNames();
    if (names.includes(MANIFESTS)) return this.openTable(MANIFESTS);
    if (!create) return undefined;
    const schema = new arrow.Schema([new arrow.Field('corpus', new arrow.Utf8(), false), new arrow.Field('json', new arrow.Utf8(), false)]);
    const created = await this.db.createEmptyTable(MANIFESTS, schema, { mode: 'create', existOk: true });
    this.opened.add(created);
    return created;
  }
}

/**
 * A passage to ingest: core's `Passage` (`{ id, title, text }`), its sentences split from the text
 * (the datasets' own splitter) unless it brings them (a dataset's `CorpusPassage` does).
 */
export type IngestedPassage = Omit<CorpusPassage, 'sentences'> & { sentences?: string[] };

/** Passage row, or one row per sentence linked to its passage. */
export function chunkRows(passage: IngestedPassage, level: ChunkLevel, questionId: string): ChunkRow[] {
  const key = (id: string) => (questionId ? `${questionId}${KEY_SEPARATOR}${id}` : id);
  if (level === 'passage') {
    return [
      {
        row_key: key(passage.id),
        id: passage.id,
        passage_id: passage.id,
        title: passage.title,
        text: passage.text,
        sentence: -1,
        question_id: questionId,
        search_text: indexableText(embeddedText(passage)),
      },
    ];
  }
  // Given sentences are kept as they are (an empty list: the text is one sentence); none given: split here.
  const given = passage.sentences ?? splitSentences(passage.text);
  const sentences = given.length ? given : [passage.text];
  return sentences.map((text, i) => {
    const id = sentenceId(passage.id, i);
    return { row_key: key(id), id, passage_id: passage.id, title: passage.title, text, sentence: i, question_id: questionId, search_text: indexableText(embeddedText({ title: passage.title, text })) };
  });
}

/**
 * What identifies an ingest's input: the setting, the embedder and every row of every level (keys,
 * ids, titles, texts, sentence indices, questions). The same input twice means nothing to write.
 */
function fingerprint(setting: CorpusSetting, embedder: Embedder | undefined, rows: ReadonlyMap<ChunkLevel, ChunkRow[]>): string {
  const hash = createHash('sha256');
  // v2: search_text is indexableText (accents folded, unspaced scripts cut into words): a table of v1 is written again.
  hash.update(`multihop-ingest-v2\0${setting}\0${embedder?.id ?? ''}\0`);
  for (const [level, list] of rows) {
    hash.update(`${level}\0${list.length}\0`);
    for (const r of list) hash.update(`${r.row_key}\0${r.id}\0${r.passage_id}\0${r.sentence}\0${r.question_id}\0${r.title}\0${r.text}\0`);
  }
  return hash.digest('hex');
}

/** What a row's vector embeds: its title and its text. */
function embeddedText(row: { title: string; text: string }): string {
  return `${row.title}. ${row.text}`;
}

/** The batch's vectors, row after row, as one Float32Array (what the vector column stores). */
async function embedFlat(embedder: Embedder, texts: string[]): Promise<Float32Array> {
  const fast = (embedder as { embedFloat32?: (texts: string[]) => Float32Array }).embedFloat32;
  if (typeof fast === 'function') return fast.call(embedder, texts);
  const vectors = await embedder.embed(texts);
  const flat = new Float32Array(texts.length * embedder.dimensions);
  vectors.forEach((v, i) => {
    if (v.length !== embedder.dimensions) throw new ConfigError(`embedder ${embedder.id} returned a vector of ${v.length} numbers for a text; it declares ${embedder.dimensions} dimensions`);
    flat.set(v, i * embedder.dimensions);
  });
  return flat;
}

/** Rows as Arrow columns in the chunk tables' schema: LanceDB takes them without converting each row. */
function arrowBatch(rows: ChunkRow[], vectors: Float32Array | undefined, dimensions: number | undefined) {
  const schema = chunkSchema(vectors ? dimensions : undefined);
  const utf8 = (pick: (r: ChunkRow) => string) => arrow.vectorFromArray(rows.map(pick), new arrow.Utf8());
  const columns: Record<string, InstanceType<typeof arrow.Vector>> = {
    row_key: utf8((r) => r.row_key),
    id: utf8((r) => r.id),
    passage_id: utf8((r) => r.passage_id),
    title: utf8((r) => r.title),
    text: utf8((r) => r.text),
    sentence: arrow.makeVector(Int32Array.from(rows, (r) => r.sentence)),
    question_id: utf8((r) => r.question_id),
    search_text: utf8((r) => r.search_text),
  };
  if (vectors && dimensions) {
    const field = schema.fields.find((f) => f.name === 'vector')!;
    const values = arrow.makeData({ type: new arrow.Float32(), length: vectors.length, data: vectors });
    columns.vector = arrow.makeVector(arrow.makeData({ type: field.type, length: rows.length, nullCount: 0, child: values }));
  }
  const data = arrow.makeData({
    type: new arrow.Struct(schema.fields),
    length: rows.length,
    nullCount: 0,
    children: schema.fields.map((f) => columns[f.name]!.data[0]!),
  });
  return new arrow.Table(schema, new arrow.RecordBatch(schema, data));
}

function* inBatches<T>(items: T[], size: number): Iterable<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

async function* mapBatches<T, U>(source: AsyncIterable<T[]>, map: (batch: T[]) => U[]): AsyncIterable<U[]> {
  for await (const batch of source) yield map(batch);
}

function chunkSchema(dimensions?: number) {
  const utf8 = (name: string) => new arrow.Field(name, new arrow.Utf8(), false);
  const fields: Array<InstanceType<typeof arrow.Field>> = [
    utf8('row_key'),
    utf8('id'),
    utf8('passage_id'),
    utf8('title'),
    utf8('text'),
    new arrow.Field('sentence', new arrow.Int32(), false),
    utf8('question_id'),
    utf8('search_text'),
  ];
  if (dimensions) {
    fields.push(new arrow.Field('vector', new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), true));
  }
  return new arrow.Schema(fields);
}

async function countDistinctPassages(table: Table, setting: CorpusSetting): Promise<number> {
  if (setting === 'open') return table.countRows();
  const rows = await table.query().select(['id']).toArray();
  return new Set(rows.map((r) => String(r.id))).size;
}

/**
 * Deletes the versions of a table replaced longer than `keepMs` ago. A reader (a retriever open in
 * another process) stays on the version that was the latest when it opened, so what matters is
 * when a version stopped being the latest (its successor's timestamp), not when it was written:
 * a corpus written a month ago and grown a minute ago keeps its month-old version for `keepMs`.
 * LanceDB deletes versions older than a date (never the latest), so the date is the timestamp of
 * the oldest version to keep.
 */
async function cleanupOldVersions(table: Table, keepMs: number): Promise<void> {
  const versions = (await table.listVersions()).sort((a, b) => a.version - b.version);
  const since = Date.now() - keepMs;
  let oldestKept = versions.length - 1;
  while (oldestKept > 0 && versions[oldestKept]!.timestamp.getTime() > since) oldestKept--;
  const keep = versions[oldestKept];
  if (!keep || oldestKept === 0) return; // nothing older than the oldest version to keep
  // Timestamps come in whole ms, so versions written in the same ms as `keep` stay too; when only
  // the latest is kept, "now" deletes them all (LanceDB never deletes the latest version).
  await table.optimize({ cleanupOlderThan: oldestKept === versions.length - 1 ? new Date() : keep.timestamp });
}

function checkCompatible(corpus: string, previous: CorpusManifest | undefined, setting: CorpusSetting, embedder?: Embedder): void {
  if (!previous) return;
  if (previous.setting !== setting) {
    throw new ConfigError(`corpus "${corpus}" is ${previous.setting}; cannot ingest into it in the ${setting} setting (use another corpus name)`);
  }
  const had = previous.index.vector?.embedder;
  if (had !== embedder?.id) {
    throw new ConfigError(`corpus "${corpus}" was ingested ${had ? `with embedder ${had}` : 'without an embedder'}; this ingest uses ${embedder ? embedder.id : 'none'}`);
  }
}

/**
 * A manifest row read back, checked before anything trusts it: one written by a newer
 * @multihop/retriever (a higher schemaVersion, a chunk level or setting this code does not know)
 * is a ConfigError saying so, rather than being used as if it were ours (and downgraded by the
 * next write), or its unknown level's missing table being reported as damage.
 */
function parseManifest(json: string, corpus: string, uri: string): CorpusManifest {
  let parsed: Partial<CorpusManifest> & Record<string, unknown>;
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch (cause) {
    throw new CorpusStoreDamagedError(uri, `the manifest of corpus "${corpus}" is not valid JSON`, corpus, { cause });
  }
  const version = parsed?.schemaVersion as unknown;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new CorpusStoreDamagedError(uri, `the manifest of corpus "${corpus}" has no valid schemaVersion (${JSON.stringify(version)})`, corpus);
  }
  if (version > SCHEMA_VERSION) {
    throw new ConfigError(
      `corpus "${corpus}" in the corpus store at ${uri} was written by a newer @multihop/retriever (manifest schemaVersion ${version}; this version reads ${SCHEMA_VERSION}); ` +
        `upgrade @multihop/retriever, or ingest it under another corpus name`,
    );
  }
  if (!SETTINGS.includes(parsed.setting as CorpusSetting)) {
    throw new ConfigError(`corpus "${corpus}" in the corpus store at ${uri} has setting ${JSON.stringify(parsed.setting)}, which this @multihop/retriever does not know (it knows ${SETTINGS.join(', ')}); was it written by a newer version?`);
  }
  if (!Array.isArray(parsed.levels)) throw new CorpusStoreDamagedError(uri, `the manifest of corpus "${corpus}" lacks its levels`, corpus);
  const unknown = parsed.levels.filter((l) => !LEVELS.includes(l));
  if (unknown.length > 0) {
    throw new ConfigError(
      `corpus "${corpus}" in the corpus store at ${uri} has chunk level${unknown.length === 1 ? '' : 's'} ${unknown.map((l) => JSON.stringify(l)).join(', ')}, which this @multihop/retriever does not know (it knows ${LEVELS.join(', ')}); was it written by a newer version?`,
    );
  }
  if (typeof parsed.counts !== 'object' || parsed.counts === null || typeof parsed.index !== 'object' || parsed.index === null) {
    throw new CorpusStoreDamagedError(uri, `the manifest of corpus "${corpus}" lacks its counts or index fields`, corpus);
  }
  return parsed as CorpusManifest;
}

export function tableName(corpus: string, level: ChunkLevel): string {
  return `${corpus.replace(/[^A-Za-z0-9_-]/g, '_')}__${level}`;
}

function validateCorpusName(corpus: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(corpus)) {
    throw new InputError(`corpus name "${corpus}" must start with a letter or digit and use only letters, digits, _ . -`, { field: 'corpus' });
  }
}


/** A plain directory path (not `s3://`, `memory://`, `file://`, …): the store's files can be checked and locked. */
function isLocal(uri: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
}

/**
 * LanceDB's error as the project's: a damaged store in words (`damaged` says any failure counts as
 * damage, as in verify()), anything else with LanceDB's internals stripped from the message.
 */
function storeError(uri: string, cause: unknown, corpus?: string, damaged = false): Error {
  if (cause instanceof MultihopError) return cause;
  const reason = damageReason(cause) ?? (damaged ? plainLanceMessage((cause as Error).message ?? String(cause)).slice(0, 200) : undefined);
  if (reason) return new CorpusStoreDamagedError(uri, reason, corpus, { cause });
  return new IngestError(`the corpus store at ${uri} failed: ${plainLanceMessage((cause as Error).message ?? String(cause))}`, { cause });
}

function resolveUri(uri?: string): string {
  if (!uri) return resolve(process.cwd(), '.multihop', 'lancedb');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) ? uri : resolve(uri);
}
