import { resolve } from 'node:path';
import { loadDataset } from './loadDataset';
import { NAMED_DATASETS, type DatasetName } from './namedDatasets';
import { loadCorpus } from './loadCorpus';

// The real shared files, from the repository root's sibling folder (shared/datasets/README.md).
const datasetsDir = resolve(__dirname, '../../../../shared/datasets');

const expected: Record<DatasetName, { questions: number; layout: string }> = {
  'hotpotqa-dev': { questions: 500, layout: 'ircot' },
  '2wiki-dev': { questions: 500, layout: 'hotpot' },
  'musique-dev': { questions: 200, layout: 'musique' },
  'hotpotqa-train': { questions: 100, layout: 'hotpot' },
  'musique-train': { questions: 100, layout: 'musique' },
};

describe('the shared datasets', () => {
  it.each(Object.keys(NAMED_DATASETS) as DatasetName[])('loads %s with every gold passage in its own context', async (name) => {
    const ds = await loadDataset(name, { datasetsDir });
    expect(ds.questions).toHaveLength(expected[name].questions);
    expect(ds.layout).toBe(expected[name].layout);
    const pool = new Set(ds.passages.map((p) => p.id));
    expect(pool.size).toBe(ds.passages.length);
    for (const q of ds.questions) {
      expect(q.supportingIds.length).toBeGreaterThanOrEqual(2);
      const own = new Set(ds.contexts[q.id]);
      for (const id of q.supportingIds) expect(own.has(id) && pool.has(id)).toBe(true);
      expect(q.answer).not.toBe('');
    }
  });

  it('detects each layout without being told, extensions notwithstanding', async () => {
    for (const [name, named] of Object.entries(NAMED_DATASETS)) {
      const ds = await loadDataset(resolve(datasetsDir, named.file));
      expect([name, ds.layout]).toEqual([name, named.layout]);
    }
  });

  it('pools HotpotQA dev paragraphs once each (4,931 context slots, 4,858 distinct)', async () => {
    const ds = await loadDataset('hotpotqa-dev', { datasetsDir });
    const slots = Object.values(ds.contexts).reduce((n, ids) => n + ids.length, 0);
    expect(slots).toBe(4931);
    expect(ds.passages).toHaveLength(4858);
    expect(ds.questions.every((q) => q.supportingIds.length === 2)).toBe(true);
  });

  it('maps 2Wiki sentence facts to paragraphs and reports the one out-of-range fact', async () => {
    const ds = await loadDataset('2wiki-dev', { datasetsDir });
    const withSentences = ds.questions.filter((q) => (q.supportingSentences?.length ?? 0) > 0);
    expect(withSentences).toHaveLength(500);
    const byId = new Map(ds.passages.map((p) => [p.id, p]));
    for (const q of ds.questions) {
      for (const s of q.supportingSentences ?? []) {
        expect(byId.get(s.passageId)?.sentences[s.sentence]).toBeDefined();
        expect(q.supportingIds).toContain(s.passageId);
      }
    }
    expect(ds.warnings).toHaveLength(2);
    expect(ds.warnings[0]).toMatch(/out of range/);
    // Summed up where a command shows it.
    expect(ds.contentWarnings).toEqual([expect.stringMatching(/dev-500\.json: 1 supporting fact could not be mapped to a sentence \(their paragraphs are still gold\): line 11475: question 77f5a3dc0bb011ebab90acde48001122: supporting sentence 1 of/)]);
  });

  it('gives a paragraph the same id whether a subset or the whole file is loaded', async () => {
    const all = await loadDataset('musique-dev', { datasetsDir });
    const some = await loadDataset('musique-dev', { datasetsDir, limit: 10 });
    expect(some.questions.map((q) => q.supportingIds)).toEqual(all.questions.slice(0, 10).map((q) => q.supportingIds));
  });

  it('keeps MuSiQue dev decompositions: one step per hop, the last step answering the question', async () => {
    const ds = await loadDataset('musique-dev', { datasetsDir });
    for (const q of ds.questions) {
      expect(q.decomposition).toHaveLength(q.hops!);
      expect(q.decomposition!.at(-1)!.answer).toBe(q.answer);
      expect(q.decomposition!.flatMap((s) => s.supportingIds).every((id) => q.supportingIds.includes(id))).toBe(true);
    }
    expect(ds.questions.some((q) => q.decomposition!.some((s) => /#\d/.test(s.question)))).toBe(true);
  });

  it('reads the shared corpus files in both corpus layouts', async () => {
    expect(await loadCorpus(resolve(datasetsDir, 'hotpotqa/train-100.corpus.json'))).toHaveLength(994);
    expect(await loadCorpus(resolve(datasetsDir, 'musique/train-100.corpus.json'))).toHaveLength(1890);
    const wiki = await loadCorpus(resolve(datasetsDir, '2wikimultihopqa/open-corpus-6119.json'));
    expect(wiki.length).toBeGreaterThan(6000);
  });
});
