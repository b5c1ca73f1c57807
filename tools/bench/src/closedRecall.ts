/**
 * `npm run bench:closed`: the closed (distractor) setting's BM25, ranked with the question's own
 * paragraphs as the collection (what the retriever does) against the whole closed table's
 * statistics (what LanceDB's one full-text index over the table gives; scored here by the same
 * function over every row, so only the statistics differ), and the search time of the retriever's
 * closed search (a question's first search, and a second one, which finds its rows already split)
 * against the raw LanceDB full-text query with the question prefilter, at passage and at sentence
 * level, all in one run.
 *
 * On the train splits and the first half of each dev file only (the second halves are for
 * reporting methods). Flags: --datasets=a,b (default all four below), --dir=path (default a temp
 * dir, removed after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { bm25Collection, CorpusStore, rankByBm25, sqlString } from '@multihop/retriever';
import { loadDataset } from '@multihop/datasets';
import { benchFlags, median } from './flags';

const SPLITS: Record<string, { offset: number; limit: number }> = {
  'hotpotqa-train': { offset: 0, limit: 100 },
  'hotpotqa-dev': { offset: 0, limit: 250 },
  '2wiki-dev': { offset: 0, limit: 250 },
  'musique-dev': { offset: 0, limit: 100 },
};

const args = benchFlags({ datasets: 'text', dir: 'text' });
const names = (args.datasets ?? Object.keys(SPLITS).join(',')).split(',');

async function main(): Promise<void> {
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'multihop-bench-closed-'));
  console.log(`# bench:closed — ${new Date().toISOString()}`);
  console.log('Both gold paragraphs in the top 5 / top 2, raw question, BM25 (closed setting):\n');
  console.log('| questions | whole table\'s statistics | the question\'s own paragraphs | passage search ms (median): first / again / raw FTS | sentence search ms: first / again / raw FTS |');
  console.log('|---|---|---|---|---|');
  const store = await CorpusStore.open({ uri: dir });
  try {
    for (const name of names) {
      const split = SPLITS[name];
      if (!split) throw new Error(`--datasets: ${name} is not one of ${Object.keys(SPLITS).join(', ')}`);
      const dataset = await loadDataset(name, { setting: 'closed' });
      const { corpus } = await store.ingest(dataset, { setting: 'closed', levels: ['passage', 'sentence'] });
      const retriever = await store.retriever(corpus);
      const table = await store.table(corpus);
      const sentences = await store.table(corpus, 'sentence');
      // The whole table's statistics: its rows split into terms once, then ranked for each question.
      const whole = bm25Collection(await table.query().select(['id', 'question_id', 'search_text']).toArray());
      const questions = dataset.questions.slice(split.offset, split.offset + split.limit);
      const counts = { whole5: 0, whole2: 0, own5: 0, own2: 0 };
      const own: number[] = [];
      const again: number[] = [];
      const raw: number[] = [];
      const sentence = { own: [] as number[], again: [] as number[], raw: [] as number[] };
      for (const q of questions) {
        const both = (ids: string[], k: number) => q.supportingIds.length > 0 && q.supportingIds.every((g) => ids.slice(0, k).includes(g));
        let t = performance.now();
        const ranked = (await retriever.search(q.text, { k: 5, questionId: q.id })).map((h) => h.id);
        own.push(performance.now() - t);
        // A method searches its question again and again: the question's rows are read and split once.
        t = performance.now();
        await retriever.search(`${q.text} again`, { k: 5, questionId: q.id });
        again.push(performance.now() - t);
        t = performance.now();
        await table.query().fullTextSearch(new lancedb.MatchQuery(q.text, 'search_text')).where(`question_id = ${sqlString(q.id)}`).select(['id', '_score']).limit(5).toArray();
        raw.push(performance.now() - t);
        // The same at sentence level, where a question has a few hundred rows rather than ten.
        t = performance.now();
        await retriever.search(q.text, { k: 5, questionId: q.id, level: 'sentence' });
        sentence.own.push(performance.now() - t);
        t = performance.now();
        await retriever.search(`${q.text} again`, { k: 5, questionId: q.id, level: 'sentence' });
        sentence.again.push(performance.now() - t);
        t = performance.now();
        await sentences.query().fullTextSearch(new lancedb.MatchQuery(q.text, 'search_text')).where(`question_id = ${sqlString(q.id)}`).select(['id', '_score']).limit(5).toArray();
        sentence.raw.push(performance.now() - t);
        const byWhole = rankByBm25(q.text, whole, (row) => row.question_id === q.id).map((row) => String(row.id));
        if (both(byWhole, 5)) counts.whole5++;
        if (both(byWhole, 2)) counts.whole2++;
        if (both(ranked, 5)) counts.own5++;
        if (both(ranked, 2)) counts.own2++;
      }
      const label = `${name} #${split.offset + 1}–${split.offset + questions.length}`;
      console.log(`| ${label} | ${counts.whole5} / ${counts.whole2} | ${counts.own5} / ${counts.own2} | ${times(own, again, raw)} | ${times(sentence.own, sentence.again, sentence.raw)} |`);
    }
  } finally {
    store.close();
    if (!args.dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** Median times of a question's first search, a later one and the raw FTS query, with their ratios to the raw query. */
function times(first: number[], again: number[], raw: number[]): string {
  const [f, a, r] = [median(first), median(again), median(raw)];
  return `${f.toFixed(2)} / ${a.toFixed(2)} / ${r.toFixed(2)} (${(f / r).toFixed(2)}× and ${(a / r).toFixed(2)}× the raw query)`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
