import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Embedder } from '@multihop/core';
import type * as Lance from '@lancedb/lancedb';
import { COMPLEXITIES, insightOverlap, loadHeraState, STATE_FILES, type HeraState, type Complexity, type ExperienceEntry, type ExperienceRetrieval, type QueryProfile, type QueryType, type RetrievedExperience } from './experience';

/**
 * The experience library in LanceDB (issue 12): a database at `<state>/db` holding one table,
 * `experience_library`, one row per entry and round (the `round` column is the version: the
 * library as it stood after round n; round 0 is the empty start). Each row's `vector` is the
 * entry's profile text (profileText) embedded with the configured embedder, whose id is in the
 * `embedder` column. Experience retrieval searches it by cosine similarity (Algorithm 4).
 */
export const LIBRARY_DB = 'db';
export const LIBRARY_TABLE = 'experience_library';

// LanceDB reads LANCEDB_LOG when its native module loads (CONVENTIONS.md); it loads only when a
// library table is opened, not when the package or its manifest is imported.
const lancedb = (): typeof Lance => {
  process.env.LANCEDB_LOG ??= 'error';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@lancedb/lancedb');
};

/** The default embedder: @multihop/retriever's HashingEmbedder (512 dimensions, offline, lexical). */
export function defaultExperienceEmbedder(): Embedder {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HashingEmbedder } = require('@multihop/retriever') as typeof import('@multihop/retriever');
  return new HashingEmbedder();
}

/**
 * The text a profile is embedded as: `<type>, <complexity>: <sentence>` — the form the
 * orchestrator is shown (so a query's profile and an entry's are embedded alike). An entry
 * without complexity or sentence (hand-written libraries) is embedded as what it has.
 */
export function profileText(profile: { query_type: string; complexity?: string | undefined; text?: string | undefined; profile?: string | undefined }): string {
  const sentence = profile.text ?? profile.profile ?? '';
  return `${profile.query_type}${profile.complexity ? `, ${profile.complexity}` : ''}${sentence ? `: ${sentence}` : ''}`;
}

/** Where Algorithm 4 draws entries from: an in-memory library or the LanceDB table. */
export interface ExperienceSource {
  size(): Promise<number>;
  retrieve(profile: QueryProfile, options: ExperienceRetrieval): Promise<RetrievedExperience[]>;
}

/** Complexities at most one level from `c` (SIMILAR's complexity band). */
const nearComplexities = (c: Complexity) => COMPLEXITIES.filter((x) => Math.abs(COMPLEXITIES.indexOf(x) - COMPLEXITIES.indexOf(c)) <= 1);
/** Similarities rounded to 1e-6, so float32 (LanceDB) and float64 (in memory) rank alike. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Algorithm 4 lines 1–7 over entries that passed the type/complexity filter, each with its
 * profile's cosine similarity to the query's: the `candidates` most similar (ties by id) are
 * SIMILAR; they are sorted by utility (descending), then similarity (descending), then uses
 * (ascending, §3.2's diversity), then id, and kept unless redundant with one already kept, up to `limit`.
 */
export function rankExperiences(scored: ReadonlyArray<{ entry: ExperienceEntry; similarity: number }>, options: ExperienceRetrieval): RetrievedExperience[] {
  const byId = (a: { entry: ExperienceEntry }, b: { entry: ExperienceEntry }) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0);
  const near = scored.map((s) => ({ ...s, similarity: round6(s.similarity) })).sort((a, b) => b.similarity - a.similarity || byId(a, b)).slice(0, options.candidates ?? Infinity);
  const sorted = near.sort((a, b) => b.entry.utility - a.entry.utility || b.similarity - a.similarity || a.entry.uses - b.entry.uses || byId(a, b));
  const kept: RetrievedExperience[] = [];
  for (const { entry } of sorted) {
    if (kept.length >= options.limit) break;
    if (kept.some((k) => insightOverlap(k.insight, entry.insight) >= options.redundancy)) continue;
    kept.push({ id: entry.id, query_type: entry.profile.query_type, insight: entry.insight, utility: entry.utility });
  }
  return kept;
}

/** SIMILAR's filter: same reasoning type, complexity unknown or at most one level apart. */
const passesFilter = (e: ExperienceEntry, p: Pick<QueryProfile, 'query_type' | 'complexity'>) =>
  e.profile.query_type === p.query_type && (e.profile.complexity === undefined || nearComplexities(p.complexity).includes(e.profile.complexity));

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    na += a[i]! * a[i]!;
    nb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Embeds texts once each (a store or source lives for a run or a learning loop). */
class EmbeddingCache {
  private readonly vectors = new Map<string, number[]>();
  private embedder: Embedder | undefined;
  /** `embedder` absent: the default, made at the first embedding (it loads @multihop/retriever). */
  constructor(embedder?: Embedder) {
    this.embedder = embedder;
  }
  async embed(texts: readonly string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((t) => !this.vectors.has(t)))];
    if (missing.length > 0) {
      const vectors = await (this.embedder ??= defaultExperienceEmbedder()).embed(missing);
      missing.forEach((t, i) => this.vectors.set(t, vectors[i]!));
    }
    return texts.map((t) => this.vectors.get(t)!);
  }
}

/** A library in memory (the `library` option, an `experienceLibrary` file, a JSON-only state directory): the same ranking, cosine computed here. */
export class MemoryExperienceSource implements ExperienceSource {
  private readonly cache: EmbeddingCache;
  constructor(
    private readonly library: readonly ExperienceEntry[],
    embedder?: Embedder,
  ) {
    this.cache = new EmbeddingCache(embedder);
  }
  async size() {
    return this.library.length;
  }
  async retrieve(profile: QueryProfile, options: ExperienceRetrieval): Promise<RetrievedExperience[]> {
    const entries = this.library.filter((e) => passesFilter(e, profile));
    if (entries.length === 0 || options.limit === 0) return [];
    const [query, ...vectors] = await this.cache.embed([profileText(profile), ...entries.map((e) => profileText(e.profile))]);
    return rankExperiences(entries.map((entry, i) => ({ entry, similarity: cosine(query!, vectors[i]!) })), options);
  }
}

export const EMPTY_EXPERIENCES: ExperienceSource = { size: async () => 0, retrieve: async () => [] };

interface LibraryRow {
  id: string;
  round: number;
  position: number;
  query_type: string;
  complexity: string;
  profile: string;
  insight: string;
  utility: number;
  uses: number;
  embedder: string;
  vector: number[];
}

const sql = (s: string) => `'${s.replace(/'/g, "''")}'`;

function entryOf(row: Record<string, unknown>): ExperienceEntry {
  const complexity = String(row['complexity'] ?? '');
  const text = String(row['profile'] ?? '');
  return {
    id: String(row['id']),
    profile: { query_type: String(row['query_type']) as QueryType, ...(complexity ? { complexity: complexity as Complexity } : {}), ...(text ? { text } : {}) },
    insight: String(row['insight']),
    utility: Number(row['utility']),
    uses: Number(row['uses']),
  };
}

/**
 * The library table of a state directory. `write(round, entries)` replaces that round's rows
 * (the learning loop rewrites the current round after every question); `read(round)` and
 * `source(round)` see one round (default: the latest). Opening with an embedder other than the
 * one the table was written with is a ConfigError (vectors of two embedders do not compare).
 */
export class ExperienceStore {
  private table: Lance.Table | undefined;
  private readonly cache: EmbeddingCache;

  private constructor(
    private readonly db: Lance.Connection,
    readonly uri: string,
    readonly embedder: Embedder,
    table: Lance.Table | undefined,
  ) {
    this.table = table;
    this.cache = new EmbeddingCache(embedder);
  }

  /** True when `stateDir` holds a library database (written by this store). */
  static exists(stateDir: string): boolean {
    return existsSync(join(stateDir, LIBRARY_DB));
  }

  static async open(stateDir: string, options: { embedder?: Embedder } = {}): Promise<ExperienceStore> {
    const embedder = options.embedder ?? defaultExperienceEmbedder();
    const uri = join(stateDir, LIBRARY_DB);
    const db = await lancedb().connect(uri);
    const table = (await db.tableNames()).includes(LIBRARY_TABLE) ? await db.openTable(LIBRARY_TABLE) : undefined;
    if (table) {
      const [row] = (await table.query().select(['embedder']).limit(1).toArray()) as Array<{ embedder: string }>;
      if (row && row.embedder !== embedder.id) {
        table.close();
        db.close();
        throw new ConfigError(`the experience library in ${uri} was embedded with ${row.embedder}; the configured embedder is ${embedder.id}`);
      }
    }
    return new ExperienceStore(db, uri, embedder, table);
  }

  /** Rounds with rows, ascending (a round whose library was empty has none). */
  async rounds(): Promise<number[]> {
    if (!this.table) return [];
    const rows = (await this.table.query().select(['round']).toArray()) as Array<{ round: number }>;
    return [...new Set(rows.map((r) => Number(r.round)))].sort((a, b) => a - b);
  }

  async latestRound(): Promise<number | undefined> {
    return (await this.rounds()).at(-1);
  }

  /** The library as of `round` (default the latest), in its order. */
  async read(round?: number): Promise<ExperienceEntry[]> {
    const r = round ?? (await this.latestRound());
    if (!this.table || r === undefined) return [];
    const rows = await this.table.query().where(`round = ${r}`).select(['id', 'position', 'query_type', 'complexity', 'profile', 'insight', 'utility', 'uses']).toArray();
    return rows.sort((a, b) => Number(a['position']) - Number(b['position'])).map(entryOf);
  }

  /** Every row but the vector, ordered by round and position (tests compare two directories with it). */
  async rows(): Promise<Array<Omit<LibraryRow, 'vector'>>> {
    if (!this.table) return [];
    const rows = await this.table.query().select(['id', 'round', 'position', 'query_type', 'complexity', 'profile', 'insight', 'utility', 'uses', 'embedder']).toArray();
    return rows
      .map((r) => ({ id: String(r['id']), round: Number(r['round']), position: Number(r['position']), query_type: String(r['query_type']), complexity: String(r['complexity']), profile: String(r['profile']), insight: String(r['insight']), utility: Number(r['utility']), uses: Number(r['uses']), embedder: String(r['embedder']) }))
      .sort((a, b) => a.round - b.round || a.position - b.position);
  }

  /** Replaces the rows of `round` with `entries` (profiles embedded). */
  async write(round: number, entries: readonly ExperienceEntry[]): Promise<void> {
    const vectors = await this.cache.embed(entries.map((e) => profileText(e.profile)));
    const rows: LibraryRow[] = entries.map((e, position) => ({
      id: e.id,
      round,
      position,
      query_type: e.profile.query_type,
      complexity: e.profile.complexity ?? '',
      profile: e.profile.text ?? '',
      insight: e.insight,
      utility: e.utility,
      uses: e.uses,
      embedder: this.embedder.id,
      vector: vectors[position]!,
    }));
    if (!this.table) {
      if (rows.length === 0) return;
      this.table = await this.db.createTable(LIBRARY_TABLE, rows as unknown as Array<Record<string, unknown>>);
      return;
    }
    await this.table.delete(`round = ${round}`);
    if (rows.length > 0) await this.table.add(rows as unknown as Array<Record<string, unknown>>);
  }

  /** Removes the rows of rounds after `round` (a resumed loop drops what it will redo). */
  async dropAfter(round: number): Promise<void> {
    if (this.table && (await this.table.countRows(`round > ${round}`)) > 0) await this.table.delete(`round > ${round}`);
  }

  /** Compacts the table and drops its superseded LanceDB versions (the `round` column is the history). */
  async compact(): Promise<void> {
    if (this.table) await this.table.optimize({ cleanupOlderThan: new Date() });
  }

  /**
   * Algorithm 4 from the table at `round` (default: the latest at each call): the type/complexity
   * filter is the `where` prefilter of a cosine vector search on the query's embedded profile;
   * every row passing it is fetched with its distance (a library is small; fetching all keeps ties
   * deterministic), then rankExperiences.
   */
  source(round?: number): ExperienceSource {
    return {
      size: async () => {
        const r = round ?? (await this.latestRound());
        return this.table && r !== undefined ? this.table.countRows(`round = ${r}`) : 0;
      },
      retrieve: async (profile, options) => {
        const r = round ?? (await this.latestRound());
        if (!this.table || r === undefined || options.limit === 0) return [];
        const complexities = nearComplexities(profile.complexity).map(sql).join(', ');
        const where = `round = ${r} AND query_type = ${sql(profile.query_type)} AND (complexity = '' OR complexity IN (${complexities}))`;
        const n = await this.table.countRows(where);
        if (n === 0) return [];
        const [query] = await this.cache.embed([profileText(profile)]);
        const rows = await this.table
          .query()
          .nearestTo(query!)
          .distanceType('cosine')
          .where(where)
          .select(['id', 'query_type', 'complexity', 'profile', 'insight', 'utility', 'uses', '_distance'])
          .limit(n)
          .toArray();
        return rankExperiences(rows.map((row) => ({ entry: entryOf(row), similarity: 1 - Number(row['_distance']) })), options);
      },
    };
  }

  close(): void {
    this.table?.close();
    this.db.close();
  }
}

/** An ExperienceSource that opens a state directory's library table on first use (workflows are created synchronously). */
export function lazyStoreSource(stateDir: string, embedder?: Embedder): ExperienceSource & { close(): void } {
  let opened: Promise<{ store: ExperienceStore; source: ExperienceSource }> | undefined;
  // A state directory being read is not being written: its latest round is read once.
  const open = () =>
    (opened ??= ExperienceStore.open(stateDir, embedder ? { embedder } : {}).then(async (store) => ({ store, source: store.source((await store.latestRound()) ?? 0) })));
  return {
    size: async () => (await open()).source.size(),
    retrieve: async (profile, options) => (await open()).source.retrieve(profile, options),
    close: () => void opened?.then(({ store }) => store.close()),
  };
}

/**
 * A state directory's library and prompts, whichever way it stores the library: the LanceDB table
 * (its latest round; `store: 'lancedb'`), else an older directory's `experience-library.json`
 * (`store: 'json'`), else none.
 */
export async function readHeraState(dir: string, options: { embedder?: Embedder } = {}): Promise<HeraState & { store: 'lancedb' | 'json' | 'none'; round?: number }> {
  const json = loadHeraState(dir);
  if (ExperienceStore.exists(dir)) {
    const store = await ExperienceStore.open(dir, options);
    try {
      const round = await store.latestRound();
      return { library: await store.read(round), prompts: json.prompts, store: 'lancedb', ...(round !== undefined ? { round } : {}) };
    } finally {
      store.close();
    }
  }
  return { ...json, store: existsSync(join(dir, STATE_FILES.library)) ? 'json' : 'none' };
}
