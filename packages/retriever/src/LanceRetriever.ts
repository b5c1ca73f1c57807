import { ConfigError, InputError, MultihopError, RunAbortedError, type RetrieverPort, type SearchHit, type SearchOptions } from '@multihop/core';
import type { ChunkLevel, CorpusManifest, SearchMode } from './CorpusManifest';
import type { Embedder } from '@multihop/core';
import { lancedb, type Table } from './lance';
import type { Reranker } from '@multihop/core';
import { sqlString } from './sqlString';
import { bm25Collection, rankByBm25, type Bm25Collection } from './questionBm25';
import { indexableText } from '@multihop/lexical';
import { fuseRanks } from './reciprocalRankFusion';
import { CorpusStoreDamagedError, SearchError } from './errors';
import { damageReason, isMissingFile, plainLanceMessage } from './storeHealth';

export interface RetrieverSearchOptions extends SearchOptions {
  /** Overrides the retriever's default mode. */
  mode?: SearchMode;
  /**
   * A SQL prefilter over the chunk columns `id`, `passage_id`, `title`, `text`, `sentence`
   * (-1 on passage rows) and `question_id`, applied before ranking, e.g. `title = 'Paris'`.
   */
  where?: string;
  /**
   * `id` (default) drops repeated chunks (a paragraph shared by several questions of a closed
   * corpus); `passage` keeps only the best sentence of each passage at sentence level.
   */
  dedupeBy?: 'id' | 'passage';
  /** `false` skips the retriever's reranker for this search. */
  rerank?: boolean;
  /** Candidates fetched for the reranker (default max(20, 2k)). */
  candidates?: number;
}

const COLUMNS = ['id', 'passage_id', 'title', 'text', 'sentence', 'question_id'];
// The score columns are selected by name: LanceDB 0.37 still adds them to a projection that lacks
// them, but warns on every such query ("did not include `_score`") that it will stop doing so.
const BM25_COLUMNS = [...COLUMNS, '_score'];
const VECTOR_COLUMNS = [...COLUMNS, '_distance'];
// One question's rows in a closed corpus, with the text its BM25 is computed over.
const OWN_COLUMNS = [...COLUMNS, 'search_text'];
// Questions whose rows a closed-corpus retriever keeps split into terms (a few dozen rows each).
const OWN_CACHE = 256;
// Standard RRF constant (Cormack et al. 2009); LanceDB's RRFReranker takes the same k.
const RRF_K = 60;

/**
 * Search over one corpus: BM25 (default), vector or hybrid (reciprocal-rank fusion of both),
 * with prefilters, per-question restriction in the closed setting, dedupe and an optional reranker.
 * Implements core's RetrieverPort, so every workflow can take it.
 */
export class LanceRetriever implements RetrieverPort {
  readonly mode: SearchMode;
  private readonly embedder?: Embedder;
  private readonly reranker?: Reranker;
  private rrf?: Promise<InstanceType<typeof lancedb.rerankers.RRFReranker>>;
  /** Where the tables live, for the message when their files turn out damaged. */
  private readonly storeUri?: string;
  /**
   * Closed corpora: each question's rows, split into terms once, for its later searches (a method
   * searches one question many times). As the table version this retriever reads, so cleared when
   * it moves to a newer one; the least recently used go past OWN_CACHE questions.
   */
  private readonly own = new Map<string, Promise<Bm25Collection>>();

  constructor(
    private readonly tables: Partial<Record<ChunkLevel, Table>>,
    readonly manifest: CorpusManifest,
    options: { mode?: SearchMode; embedder?: Embedder; reranker?: Reranker; storeUri?: string } = {},
  ) {
    this.storeUri = options.storeUri;
    this.mode = options.mode ?? 'bm25';
    this.embedder = options.embedder;
    this.reranker = options.reranker;
    if (this.mode !== 'bm25') this.vectorEmbedder(this.mode);
  }

  /**
   * The retriever one question sees. In a closed corpus (the distractor setting) every search is
   * restricted to that question's own paragraphs; an open corpus is shared, so it is returned as is.
   */
  forQuestion(questionId: string): RetrieverPort {
    if (this.manifest.setting !== 'closed') return this;
    return { search: (query, options = {}) => this.search(query, { ...options, questionId }) };
  }

  async search(query: string, options: RetrieverSearchOptions = {}): Promise<SearchHit[]> {
    const k = options.k ?? 5;
    if (!Number.isInteger(k) || k < 1) throw new InputError(`k must be a positive integer, got ${k}`, { field: 'k' });
    const level = options.level ?? 'passage';
    const table = this.tables[level];
    if (!table) throw new ConfigError(`corpus "${this.manifest.corpus}" has no ${level}-level chunks (levels: ${this.manifest.levels.join(', ')})`);
    const mode = options.mode ?? this.mode;
    abortIf(options.signal);
    if (!query.trim()) return [];

    const filters: string[] = [];
    // In an open corpus every paragraph is shared, so a questionId does not restrict anything there.
    const ownQuestion = options.questionId !== undefined && this.manifest.setting === 'closed' ? options.questionId : undefined;
    if (ownQuestion !== undefined) filters.push(`question_id = ${sqlString(ownQuestion)}`);
    if (options.where) filters.push(`(${options.where})`);
    const where = filters.length ? filters.join(' AND ') : undefined;
    const scope: Scope = { where, question: ownQuestion, narrowed: options.where !== undefined };

    const dedupeBy = options.dedupeBy ?? 'id';
    const reranker = options.rerank === false ? undefined : this.reranker;
    const wanted = reranker ? Math.max(options.candidates ?? Math.max(20, 2 * k), k) : k;
    const mayRepeat = (this.manifest.setting === 'closed' && options.questionId === undefined) || (dedupeBy === 'passage' && level === 'sentence');
    // Rows that may repeat (a paragraph shared by many questions, a passage with many matching
    // sentences) are over-fetched; when even that holds fewer than `wanted` distinct keys, the
    // search runs again with a larger limit, until it has them or the rows run out.
    let limit = mayRepeat ? wanted * 4 : wanted;
    let hits: SearchHit[];
    for (;;) {
      let rows: Record<string, unknown>[];
      try {
        rows = await this.runFresh(table, mode, query, scope, limit, options.signal);
      } catch (error) {
        if (error instanceof MultihopError) throw error;
        const damaged = damageReason(error);
        if (damaged) throw new CorpusStoreDamagedError(this.storeUri ?? '(unknown)', damaged, this.manifest.corpus, { cause: error });
        throw new SearchError(`${mode} search of corpus "${this.manifest.corpus}" (${level}) failed for query "${query.slice(0, 120)}": ${plainLanceMessage((error as Error).message)}`, { cause: error });
      }
      abortIf(options.signal);
      const seen = new Set<string>();
      hits = [];
      for (const row of rows) {
        const hit = toHit(row, level, mode);
        const key = dedupeBy === 'passage' ? String(row.passage_id) : hit.id;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push(hit);
        if (hits.length === wanted) break;
      }
      if (!mayRepeat || hits.length >= wanted || rows.length < limit) break;
      limit *= 4;
    }
    hits.forEach((h, i) => (h.rank = i + 1));
    if (reranker) hits = await reranker.rerank(query, hits, { k, signal: options.signal });
    return hits.slice(0, k);
  }

  /**
   * run(), retried once on the latest version of the table when a file it reads is missing. This
   * handle reads the version that was the latest when it opened; an ingest in another process
   * creates newer ones, and deletes old versions' files once they are past its grace period
   * (IngestOptions.keepOldVersionsMs). That is not damage: the latest version has all its files.
   * A file missing from the latest version too is, and the caller reports it.
   */
  private async runFresh(table: Table, mode: SearchMode, query: string, scope: Scope, limit: number, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    try {
      return await this.run(table, mode, query, scope, limit, signal);
    } catch (error) {
      if (error instanceof MultihopError || !isMissingFile(error)) throw error;
      await table.checkoutLatest();
      this.own.clear();
      return this.run(table, mode, query, scope, limit, signal);
    }
  }

  private async run(table: Table, mode: SearchMode, query: string, scope: Scope, limit: number, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const { where } = scope;
    if (scope.question !== undefined && mode !== 'vector') return this.runOwnQuestion(table, mode, query, { ...scope, question: scope.question }, limit, signal);
    if (mode === 'bm25') {
      let q = table.query().fullTextSearch(matchWords(query)).select(BM25_COLUMNS).limit(limit);
      if (where) q = q.where(where);
      return q.toArray();
    }
    const embedder = this.vectorEmbedder(mode);
    const [vector] = await embedder.embed([query], signal);
    if (!vector) throw new ConfigError(`embedder ${embedder.id} returned no vector`);
    abortIf(signal);
    let q = table.query().nearestTo(vector).distanceType('cosine').limit(limit);
    if (mode === 'hybrid') {
      // A hybrid query's projection applies to both of its halves, and no projection names both
      // halves' score columns (the vector half has no `_score`, the full-text half no `_distance`):
      // it takes every column, a few extra per hit, so that neither half relies on the deprecated
      // automatic projection of its score.
      this.rrf ??= lancedb.rerankers.RRFReranker.create(RRF_K);
      q = q.fullTextSearch(matchWords(query)).rerank(await this.rrf);
    } else {
      q = q.select(VECTOR_COLUMNS);
    }
    if (where) q = q.where(where);
    return q.toArray();
  }

  /**
   * BM25 (and BM25's half of hybrid) for one question of a closed corpus, ranked with that
   * question's own paragraphs as the collection: its rows are read (a few dozen at most, through
   * the question_id index) and scored here (questionBm25.ts). `where` narrows which of them are
   * ranked, not the statistics. Hybrid fuses this ranking with the vector search's by reciprocal
   * rank fusion, 1 / (60 + rank) from each list, as LanceDB's hybrid query does.
   */
  private async runOwnQuestion(table: Table, mode: SearchMode, query: string, scope: Scope & { question: string }, limit: number, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const collection = await this.ownRows(table, scope.question);
    let ranked: ((row: Record<string, unknown>) => boolean) | undefined;
    if (scope.narrowed) {
      const kept = new Set((await table.query().where(scope.where!).select(['id']).toArray()).map((row) => String(row.id)));
      ranked = (row) => kept.has(String(row.id));
    }
    const lexical = rankByBm25(query, collection, ranked).slice(0, limit);
    if (mode === 'bm25') return lexical;
    const embedder = this.vectorEmbedder(mode);
    const [vector] = await embedder.embed([query], signal);
    if (!vector) throw new ConfigError(`embedder ${embedder.id} returned no vector`);
    abortIf(signal);
    const nearest = await table.query().nearestTo(vector).distanceType('cosine').where(scope.where!).select(VECTOR_COLUMNS).limit(limit).toArray();
    // Σ 1 / (60 + rank) over the two lists, by row id, as LanceDB's hybrid query fuses them.
    return fuseRanks([nearest, lexical], (row) => String(row.id), RRF_K)
      .slice(0, limit)
      .map(({ item, score }) => ({ ...item, _relevance_score: score }));
  }

  /** A question's rows at a level, as a BM25 collection: read and split once, then kept (see `own`). */
  private ownRows(table: Table, question: string): Promise<Bm25Collection> {
    const key = `${table.name}\u0000${question}`;
    let rows = this.own.get(key);
    if (rows) {
      this.own.delete(key);
    } else {
      rows = table.query().where(`question_id = ${sqlString(question)}`).select(OWN_COLUMNS).toArray().then(bm25Collection);
      // A failed read is not kept: the next search reads again.
      rows.catch(() => this.own.delete(key));
      if (this.own.size >= OWN_CACHE) this.own.delete(this.own.keys().next().value!);
    }
    this.own.set(key, rows);
    return rows;
  }

  private vectorEmbedder(mode: SearchMode): Embedder {
    const indexed = this.manifest.index.vector;
    if (!indexed) throw new ConfigError(`corpus "${this.manifest.corpus}" has no vectors; ingest it with an embedder to use ${mode} search`);
    if (!this.embedder) throw new ConfigError(`${mode} search needs an embedder (the corpus was embedded with ${indexed.embedder})`);
    if (this.embedder.id !== indexed.embedder) {
      throw new ConfigError(`corpus "${this.manifest.corpus}" was embedded with ${indexed.embedder}, not ${this.embedder.id}`);
    }
    return this.embedder;
  }
}

/** Where a search looks: the SQL prefilter, and the question whose own paragraphs it ranks (closed corpora). */
interface Scope {
  where?: string;
  question?: string;
  /** A caller's `where` narrows the question's rows. */
  narrowed: boolean;
}

/**
 * The query as plain words. A string query goes through LanceDB's query parser, where quotes
 * make a phrase query — which needs positions the index does not keep — so a model's query
 * like `"Spanish Harlem" songwriter` failed. A MatchQuery is never parsed.
 */
function matchWords(query: string) {
  // The query in the index's form (accents folded, unspaced scripts cut into words), as search_text is written.
  return new lancedb.MatchQuery(indexableText(query), 'search_text');
}

function toHit(row: Record<string, unknown>, level: ChunkLevel, mode: SearchMode): SearchHit {
  const score =
    mode === 'bm25' ? Number(row._score) : mode === 'vector' ? 1 - Number(row._distance) : Number(row._relevance_score);
  const hit: SearchHit = { id: String(row.id), title: String(row.title), text: String(row.text), rank: 0, score };
  if (level === 'sentence') {
    hit.passageId = String(row.passage_id);
    hit.sentence = Number(row.sentence);
  }
  return hit;
}

function abortIf(signal?: AbortSignal): void {
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
}
