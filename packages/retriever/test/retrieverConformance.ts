import { RunAbortedError, type Question, type SearchHit } from '@multihop/core';
import { loadDataset, sentenceId, type Dataset } from '@multihop/datasets';
import { CorpusStore } from '../src/CorpusStore';
import type { SearchMode } from '../src/CorpusManifest';
import { HashingEmbedder } from '../src/HashingEmbedder';
import { sqlString } from '../src/sqlString';
import type { LanceRetriever } from '../src/LanceRetriever';
import type { Reranker } from '@multihop/core';
import { datasetsDir, tempDir } from './sharedData';

/**
 * The retriever contract, run once per search mode (STYLE.md: one shared suite every adapter runs).
 * Every mode gets the same data (the first 50 HotpotQA dev questions, closed and open, and the
 * first 300 2Wiki dev questions closed, whose contexts share paragraphs), the same assertions and
 * the same gold-finding bars.
 */
export function retrieverConformance(mode: SearchMode, options: { reranker?: Reranker } = {}): void {
  describe(`retriever conformance: ${mode}${options.reranker ? ` + ${options.reranker.id} reranker` : ''}`, () => {
    let store: CorpusStore;
    let dataset: Dataset;
    let closed: LanceRetriever;
    let open: LanceRetriever;
    let sharing: Dataset;
    let sharingClosed: LanceRetriever;

    beforeAll(async () => {
      dataset = await loadDataset('hotpotqa-dev', { datasetsDir, limit: 50 });
      store = await CorpusStore.open({ uri: await tempDir(`conformance-${mode}`) });
      const embedder = new HashingEmbedder();
      await store.ingest(dataset, { setting: 'closed', embedder });
      await store.ingest(dataset, { setting: 'open', embedder });
      closed = await store.retriever('hotpotqa-dev-closed', { mode, embedder, reranker: options.reranker });
      open = await store.retriever('hotpotqa-dev-open', { mode, embedder, reranker: options.reranker });
      // No paragraph of the first 50 HotpotQA questions is in two questions' contexts; in 2Wiki dev
      // one is in 49 of the first 300 (more than the 4k rows a search fetches first for k = 10).
      sharing = await loadDataset('2wiki-dev', { datasetsDir, limit: 300 });
      await store.ingest(sharing, { setting: 'closed', embedder, levels: ['passage'] });
      sharingClosed = await store.retriever('2wiki-dev-closed', { mode, embedder, reranker: options.reranker });
    });
    afterAll(() => store?.close());

    const recallAt = async (retriever: LanceRetriever, k: number, closedSetting: boolean) => {
      let anyGold = 0;
      let allGold = 0;
      for (const q of dataset.questions) {
        const hits = await retriever.search(q.text, { k, questionId: closedSetting ? q.id : undefined });
        const found = q.supportingIds.filter((id) => hits.some((h) => h.id === id)).length;
        if (found > 0) anyGold++;
        if (found === q.supportingIds.length) allGold++;
      }
      return { any: anyGold / dataset.questions.length, all: allGold / dataset.questions.length };
    };

    it('returns at most k hits, ranked 1..n with non-increasing scores', async () => {
      for (const q of dataset.questions.slice(0, 10)) {
        const hits = await open.search(q.text, { k: 7 });
        expect(hits.length).toBe(7);
        expectWellRanked(hits);
      }
    });

    it('restricts a closed search to the question’s own paragraphs', async () => {
      for (const q of dataset.questions) {
        const own = new Set(dataset.contexts[q.id]);
        const hits = await closed.search(q.text, { k: 50, questionId: q.id });
        // BM25 returns only paragraphs sharing a term with the query, so at most all of them.
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.length).toBeLessThanOrEqual(own.size);
        expect(hits.every((h) => own.has(h.id))).toBe(true);
        expectWellRanked(hits);
      }
    });

    it('finds gold in the closed (distractor) setting with the raw question', async () => {
      const r5 = await recallAt(closed, 5, true);
      const r10 = await recallAt(closed, 10, true);
      expect(r5.any).toBeGreaterThanOrEqual(0.9);
      expect(r5.all).toBeGreaterThanOrEqual(0.4);
      // BM25 ranks a question's paragraphs with those paragraphs as its collection. Measured on these
      // 50 questions: both gold in the top 5 for 0.78 (bm25), 0.74 (hybrid), 0.76 (bm25 + lexical
      // reranker); with the whole closed table's statistics, as LanceDB's one index gives, 0.50 (bm25).
      if (mode !== 'vector') expect(r5.all).toBeGreaterThanOrEqual(0.7);
      expect(r10.all).toBeGreaterThanOrEqual(0.95);
    });

    it('ranks a closed question by its own paragraphs alone: the same hits and scores whatever else the corpus holds', async () => {
      const few = await loadDataset('hotpotqa-dev', { datasetsDir, limit: 3 });
      await store.ingest(few, { corpus: 'hotpotqa-dev-three-closed', setting: 'closed', embedder: new HashingEmbedder() });
      const alone = await store.retriever('hotpotqa-dev-three-closed', { mode, embedder: new HashingEmbedder(), reranker: options.reranker });
      for (const q of few.questions) {
        for (const level of ['passage', 'sentence'] as const) {
          const within = await closed.search(q.text, { k: 10, level, questionId: q.id });
          const byItself = await alone.search(q.text, { k: 10, level, questionId: q.id });
          expect(within.length).toBeGreaterThan(1);
          expect(byItself.map((h) => [h.id, h.score])).toEqual(within.map((h) => [h.id, h.score]));
        }
      }
      // A prefilter narrows what is ranked, not the statistics it is ranked with.
      const q = few.questions[0]!;
      const gold = q.supportingIds[0]!;
      const all = await closed.search(q.text, { k: 10, questionId: q.id });
      const narrowed = await closed.search(q.text, { k: 10, questionId: q.id, where: `id != ${sqlString(gold)}` });
      expect(narrowed.map((h) => h.id)).toEqual(all.map((h) => h.id).filter((id) => id !== gold));
      if (mode === 'bm25' && !options.reranker) expect(narrowed.map((h) => h.score)).toEqual(all.filter((h) => h.id !== gold).map((h) => h.score));
    });

    it('finds gold in the open setting with the raw question', async () => {
      const r5 = await recallAt(open, 5, false);
      const r10 = await recallAt(open, 10, false);
      expect(r5.any).toBeGreaterThanOrEqual(0.9);
      expect(r10.all).toBeGreaterThanOrEqual(0.6);
    });

    it('puts a passage first when queried with its own title and text', async () => {
      const gold = dataset.questions.slice(0, 20).map((q) => q.supportingIds[0]!);
      const byId = new Map(dataset.passages.map((p) => [p.id, p]));
      for (const id of gold) {
        const p = byId.get(id)!;
        const [first] = await open.search(`${p.title}. ${p.text}`, { k: 3 });
        expect(first?.id).toBe(id);
      }
    });

    it('searches sentence chunks linked to their passages', async () => {
      const p = dataset.passages.find((x) => x.sentences.length >= 3)!;
      const hits = await open.search(`${p.title}. ${p.sentences[1]}`, { k: 5, level: 'sentence' });
      expect(hits[0]).toMatchObject({ id: sentenceId(p.id, 1), passageId: p.id, sentence: 1, text: p.sentences[1], title: p.title });
      for (const h of hits) expect(h.id).toBe(sentenceId(h.passageId!, h.sentence!));
      expectWellRanked(hits);
    });

    it('keeps one sentence per passage when asked to dedupe by passage', async () => {
      const q = dataset.questions[0]!;
      const hits = await open.search(q.text, { k: 8, level: 'sentence', dedupeBy: 'passage' });
      expect(new Set(hits.map((h) => h.passageId)).size).toBe(hits.length);
      expect(hits.length).toBe(8);
    });

    it('applies a where prefilter before ranking', async () => {
      const q = dataset.questions[1]!;
      const goldTitle = dataset.passages.find((p) => p.id === q.supportingIds[0])!.title;
      const quoted = `'${goldTitle.replace(/'/g, "''")}'`;
      expect((await open.search(goldTitle, { k: 5, where: `title = ${quoted}` })).map((h) => h.title)).toEqual([goldTitle]);
      const without = await open.search(goldTitle, { k: 5, where: `title != ${quoted}` });
      expect(without.length).toBeGreaterThan(0);
      expect(without.some((h) => h.title === goldTitle)).toBe(false);
    });

    it('deduplicates paragraphs shared by several questions when a closed corpus is searched whole, and still returns k hits', async () => {
      const shared = sharedParagraph(sharing);
      expect(shared.questions).toBeGreaterThan(40);
      for (const k of [5, 10]) {
        const hits = await sharingClosed.search(shared.query, { k });
        const ids = hits.map((h) => h.id);
        expect(ids).toHaveLength(k);
        expect(new Set(ids).size).toBe(k);
        expect(ids).toContain(shared.id);
        expectWellRanked(hits);
      }
    });

    it('answers an empty query with no hits and survives query syntax characters', async () => {
      expect(await open.search('   ')).toEqual([]);
      const hits = await open.search('"Kiss and Tell" (1945): who? -- AND OR NOT * [x] {y} \\ \' ~2', { k: 3 });
      expect(hits.length).toBe(3);
    });

    it('stops on an aborted signal', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(open.search('anything', { signal: controller.signal })).rejects.toBeInstanceOf(RunAbortedError);
    });
  });
}

function expectWellRanked(hits: SearchHit[]): void {
  hits.forEach((h, i) => {
    expect(h.rank).toBe(i + 1);
    expect(Number.isFinite(h.score)).toBe(true);
    expect(typeof h.title).toBe('string');
    expect(h.text.length).toBeGreaterThan(0);
    if (i > 0) expect(h.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });
}

/** The paragraph that occurs in the most questions' contexts, with that number. */
function sharedParagraph(dataset: Dataset): { id: string; query: string; questions: number } {
  const count = new Map<string, number>();
  for (const ids of Object.values(dataset.contexts)) for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  const [id, questions] = [...count.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const p = dataset.passages.find((x) => x.id === id)!;
  return { id, query: `${p.title}. ${p.text}`, questions };
}

export type { Question };
