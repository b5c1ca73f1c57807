import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExperienceLibrary, loadHeraState, retrieveExperiences, type ExperienceEntry } from './experience';

const entry = (id: string, query_type: ExperienceEntry['profile']['query_type'], insight: string, utility: number, uses = 0, complexity?: 'easy' | 'medium' | 'hard'): ExperienceEntry => ({
  id,
  profile: { query_type, ...(complexity ? { complexity } : {}) },
  insight,
  utility,
  uses,
});

describe('retrieveExperiences (Algorithm 4, lines 1–7)', () => {
  const options = { limit: 5, redundancy: 0.6 };

  it('keeps similar profiles, by utility, the less used first among equals, skipping redundant insights', () => {
    const library = [
      entry('a', 'bridge', 'Answer the first hop before searching the second hop.', 1, 3),
      entry('b', 'bridge', 'Validate the context after retrieval.', 1, 0),
      entry('c', 'bridge', 'Answer the first hop before you search the second hop.', 4),
      entry('d', 'comparison', 'Retrieve both entities in parallel.', 9),
      entry('e', 'bridge', 'Decompose hard chains.', 2, 0, 'hard'),
    ];
    expect(retrieveExperiences(library, { query_type: 'bridge', complexity: 'easy' }, options).map((e) => e.id)).toEqual(['c', 'b']);
    expect(retrieveExperiences(library, { query_type: 'bridge', complexity: 'medium' }, options).map((e) => e.id)).toEqual(['c', 'e', 'b']);
    expect(retrieveExperiences(library, { query_type: 'bridge', complexity: 'medium' }, { ...options, limit: 1 }).map((e) => e.id)).toEqual(['c']);
    expect(retrieveExperiences([], { query_type: 'bridge', complexity: 'medium' }, options)).toEqual([]);
  });
});

describe('library and state files', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hera-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a library file (bare array or with its format) and a state directory; an empty directory is an empty state', () => {
    writeFileSync(join(dir, 'lib.json'), JSON.stringify([{ id: 'x', profile: { query_type: 'comparison' }, insight: 'Compare dates.' }]));
    expect(loadExperienceLibrary(join(dir, 'lib.json'))).toEqual([{ id: 'x', profile: { query_type: 'comparison' }, insight: 'Compare dates.', utility: 0, uses: 0 }]);
    expect(loadHeraState(dir)).toEqual({ library: [], prompts: [] });
    writeFileSync(join(dir, 'experience-library.json'), JSON.stringify({ format: 'hera-experience-library/1', entries: [{ id: 'y', profile: { query_type: 'bridge' }, insight: 'Chain.', utility: 2, uses: 1 }] }));
    writeFileSync(join(dir, 'prompts.json'), JSON.stringify({ format: 'hera-prompts/1', prompts: [{ promptId: 'hera.answer', system: 'Answer with the entity only.', generation: 2 }] }));
    expect(loadHeraState(dir)).toEqual({
      library: [{ id: 'y', profile: { query_type: 'bridge' }, insight: 'Chain.', utility: 2, uses: 1 }],
      prompts: [{ promptId: 'hera.answer', system: 'Answer with the entity only.', generation: 2 }],
    });
  });

  it('names the file and the field of a malformed entry', () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify([{ id: 'x', profile: { query_type: 'riddle' }, insight: 'x' }]));
    expect(() => loadExperienceLibrary(join(dir, 'bad.json'))).toThrow(/bad\.json: 0\.profile\.query_type/);
  });
});
