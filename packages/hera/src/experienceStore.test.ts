import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type RetrieverPort } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { HashingEmbedder } from '@multihop/retriever';
import type { ExperienceEntry, QueryProfile } from './experience';
import { ExperienceStore, LIBRARY_DB, MemoryExperienceSource, readHeraState } from './experienceStore';
import { offlineHandlers } from './offline';
import { createHeraWorkflow } from './workflows';

const entry = (id: string, query_type: ExperienceEntry['profile']['query_type'], complexity: 'easy' | 'medium' | 'hard', text: string, insight: string, utility: number): ExperienceEntry => ({
  id,
  profile: { query_type, complexity, text },
  insight,
  utility,
  uses: 0,
});
const FILM = entry('a', 'bridge', 'medium', 'Finds the director of a film shot in a North Carolina town.', 'Decompose the film question, then retrieve the director.', 1);
const BAND = entry('b', 'bridge', 'medium', 'Finds the birthplace of the founding singer of a band.', 'Retrieve the band before its singer.', 3);
const COMPARE = entry('c', 'comparison', 'medium', 'Compares the founding years of two bands.', 'Retrieve both bands in parallel.', 9);
const HARD = entry('d', 'bridge', 'hard', 'Finds the director of a film shot in a North Carolina town.', 'Validate the context before answering.', 0);
const query: QueryProfile = { query_type: 'bridge', complexity: 'medium', profile: 'Finds the director of a film shot in a small town.' };
const options = { limit: 5, redundancy: 0.6, candidates: 20 };

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hera-store-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function withStore<T>(dir: string, f: (store: ExperienceStore) => Promise<T>, embedder?: HashingEmbedder): Promise<T> {
  const store = await ExperienceStore.open(dir, embedder ? { embedder } : {});
  try {
    return await f(store);
  } finally {
    store.close();
  }
}

describe('the experience library in LanceDB', () => {
  it('writes entries with embedded profiles to a table on disk and finds them by similar profile (type/complexity filter, cosine, utility)', async () => {
    const dir = tmp();
    await withStore(dir, (s) => s.write(1, [FILM, BAND, COMPARE, HARD]));
    expect(existsSync(join(dir, LIBRARY_DB))).toBe(true);
    // Reopened from disk.
    await withStore(dir, async (store) => {
      expect(await store.read()).toEqual([FILM, BAND, COMPARE, HARD]);
      const source = store.source();
      expect(await source.size()).toBe(4);
      // Same type, complexity within one level: a, b, d (c is a comparison); by utility.
      expect((await source.retrieve(query, options)).map((e) => e.id)).toEqual(['b', 'a', 'd']);
      // Only the nearest profile competes: the film entry, not the higher-utility band one.
      expect((await source.retrieve(query, { ...options, candidates: 1 })).map((e) => e.id)).toEqual(['a']);
      expect((await source.retrieve(query, { ...options, candidates: 2 })).map((e) => e.id)).toEqual(['a', 'd']);
      // Equal utility: the more similar profile first.
      const tie = [{ ...FILM, utility: 3 }];
      await store.write(2, [BAND, ...tie]);
      expect((await store.source(2).retrieve(query, options)).map((e) => e.id)).toEqual(['a', 'b']);
      expect((await store.source(2).retrieve({ ...query, profile: 'Finds the birthplace of the singer of a band.' }, options)).map((e) => e.id)).toEqual(['b', 'a']);
      // The in-memory source (a library file, an older JSON state) ranks alike.
      for (const candidates of [1, 2, 20]) {
        expect(await new MemoryExperienceSource([FILM, BAND, COMPARE, HARD]).retrieve(query, { ...options, candidates })).toEqual(await store.source(1).retrieve(query, { ...options, candidates }));
      }
    });
  });

  it('is versioned per round (the round column): each round reads alone, a rewrite replaces the round, later rounds can be dropped', async () => {
    const dir = tmp();
    await withStore(dir, async (store) => {
      expect(await store.rounds()).toEqual([]);
      expect(await store.source().retrieve(query, options)).toEqual([]);
      await store.write(0, []);
      await store.write(1, [FILM]);
      await store.write(2, [{ ...FILM, utility: 2, uses: 3 }]);
      await store.write(2, [{ ...FILM, utility: 4, uses: 5 }, BAND]);
      await store.write(3, [BAND]);
      expect(await store.rounds()).toEqual([1, 2, 3]);
      expect(await store.read(1)).toEqual([FILM]);
      expect(await store.read(2)).toEqual([{ ...FILM, utility: 4, uses: 5 }, BAND]);
      expect(await store.read()).toEqual([BAND]);
      expect((await store.source(1).retrieve(query, options)).map((e) => [e.id, e.utility])).toEqual([['a', 1]]);
      await store.dropAfter(2);
      await store.compact();
      expect(await store.rounds()).toEqual([1, 2]);
      expect((await store.rows()).map((r) => [r.round, r.position, r.id, r.embedder])).toEqual([
        [1, 0, 'a', 'hashing-v1:512'],
        [2, 0, 'a', 'hashing-v1:512'],
        [2, 1, 'b', 'hashing-v1:512'],
      ]);
    });
  });

  it('refuses an embedder other than the one the table was written with', async () => {
    const dir = tmp();
    await withStore(dir, (s) => s.write(1, [FILM]));
    await expect(ExperienceStore.open(dir, { embedder: new HashingEmbedder({ dimensions: 64 }) })).rejects.toThrow(ConfigError);
    await expect(ExperienceStore.open(dir, { embedder: new HashingEmbedder({ dimensions: 64 }) })).rejects.toThrow(/embedded with hashing-v1:512; the configured embedder is hashing-v1:64/);
    expect(await withStore(dir, (s) => s.read(), new HashingEmbedder())).toEqual([FILM]);
  });
});

describe('a state directory loads with the LanceDB library and in the older JSON-only form', () => {
  const passages = [
    { id: 'p1', title: 'Leland, North Carolina', text: 'Leland is a town in Brunswick County, North Carolina.' },
    { id: 'p2', title: 'Maximum Overdrive', text: 'Maximum Overdrive is a 1986 film directed by Stephen King, shot in and around Wilmington and Leland, North Carolina.' },
  ];
  const retriever: RetrieverPort = { search: async (_q, o = {}) => passages.slice(0, o.k ?? 5).map((p, i) => ({ ...p, score: 1, rank: i + 1 })) };
  const model = offlineModel({ handlers: offlineHandlers });
  const question = { id: 'q1', text: 'Who directed the film that was shot in or around Leland, North Carolina in 1986?' };
  const experiencesOf = async (state: string) => {
    const result = await createHeraWorkflow('full', { state }).run(question, { model, retriever });
    return { experiences: result.data?.['experiences'], library: (result.data?.['settings'] as { library: number }).library };
  };

  it('runs retrieve the same experiences from the table and from experience-library.json', async () => {
    const profile = (await createHeraWorkflow('full').run(question, { model, retriever })).data?.['profile'] as QueryProfile;
    const library = [
      entry('x1', profile.query_type, profile.complexity, profile.profile, 'Decompose, then answer each hop in order.', 2),
      entry('x2', profile.query_type, profile.complexity, 'Something else entirely.', 'Validate the context after retrieval.', 2),
      entry('x3', profile.query_type === 'bridge' ? 'comparison' : 'bridge', 'medium', profile.profile, 'Retrieve both in parallel.', 5),
    ];
    const lance = tmp();
    await withStore(lance, (s) => s.write(1, library));
    writeFileSync(join(lance, 'prompts.json'), JSON.stringify({ format: 'hera-prompts/1', prompts: [] }));
    const json = tmp();
    writeFileSync(join(json, 'experience-library.json'), JSON.stringify({ format: 'hera-experience-library/1', entries: library }));

    const fromTable = await experiencesOf(lance);
    expect(fromTable).toEqual({ experiences: [{ id: 'x1', utility: 2 }, { id: 'x2', utility: 2 }], library: 3 });
    expect(await experiencesOf(json)).toEqual(fromTable);
    expect(await readHeraState(lance)).toEqual({ library, prompts: [], store: 'lancedb', round: 1 });
    expect(await readHeraState(json)).toEqual({ library, prompts: [], store: 'json' });
    expect(await readHeraState(tmp())).toEqual({ library: [], prompts: [], store: 'none' });

    // What an eval records of the state directory: runs from it leave it as it was; evolved again, it digests otherwise.
    const digest = createHeraWorkflow('full', { state: lance }).artifacts?.[lance];
    expect(digest).toMatch(/^[0-9a-f]{40}$/);
    await experiencesOf(lance);
    expect(createHeraWorkflow('full', { state: lance }).artifacts).toEqual({ [lance]: digest });
    await withStore(lance, (s) => s.write(2, library.slice(0, 1)));
    expect(createHeraWorkflow('full', { state: lance }).artifacts?.[lance]).not.toBe(digest);
  });
});
