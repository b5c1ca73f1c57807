/**
 * `npm run bench:retrieval`: ingest throughput, query latency (wrapper vs the same query straight
 * on LanceDB), single-query retrieval quality and a synthetic scale run, all measured in one run.
 *
 * Flags: --scale-passages=N (default 1,000,000; 0 skips), --compare-passages=N (project vs raw
 * LanceDB ingest, default 200,000 synthetic passages; 0 skips), --vector-queries=N (1M vector
 * index recall, default 50), --datasets=a,b, --queries=N (per dataset, default all), --dir=path
 * (default a temp dir, removed after; an existing one is reused, but every corpus the bench
 * measures is ingested anew, so its rates are never those of a no-op re-ingest), --json=file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Question, SearchHit } from '@multihop/core';
import { loadDataset, type CorpusPassage, type Dataset } from '@multihop/datasets';
import { retrievalScores, summarizeLatency } from '@multihop/metrics';
import { LexicalReranker } from '@multihop/lexical';
import { CorpusStore, HashingEmbedder, type LanceRetriever, type SearchMode } from '@multihop/retriever';
import { compareIngest, embedderRate, vectorIndex, type IngestSide } from './retrievalIngest';
import { benchFlags } from './flags';

type Table = Awaited<ReturnType<CorpusStore['table']>>;

const args = benchFlags({ datasets: 'text', dir: 'text', json: 'text', queries: 'count', 'compare-passages': 'number', 'scale-passages': 'number', 'vector-queries': 'count' });
const scalePassages = Number(args['scale-passages'] ?? 1_000_000);
const datasetNames = (args.datasets ?? 'hotpotqa-dev,2wiki-dev,musique-dev').split(',');
const queryLimit = args.queries ? Number(args.queries) : Infinity;
const comparePassages = Number(args['compare-passages'] ?? 200_000);
const vectorQueries = Number(args['vector-queries'] ?? 50);
const K = [5, 10] as const;
const MODES: SearchMode[] = ['bm25', 'vector', 'hybrid'];

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const pct = (x: number) => (100 * x).toFixed(1);

async function main(): Promise<void> {
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'multihop-bench-'));
  const started = Date.now();
  console.log(`# bench:retrieval — ${new Date().toISOString()}`);
  console.log(`machine: nproc ${nprocs()}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, node ${process.version}, ${cpus()[0]?.model ?? ''}`);
  console.log(`database: ${dir}\n`);
  const store = await CorpusStore.open({ uri: dir });
  const embedder = new HashingEmbedder();
  const results: Record<string, unknown> = { date: new Date().toISOString(), nproc: nprocs(), node: process.version };

  const ingestRows: string[] = [];
  const latencyRows: string[] = [];
  const qualityRows: string[] = [];
  for (const name of datasetNames) {
    const dataset = await loadDataset(name);
    // Timed from outside: the whole call (rows, fingerprint, lock, writes, index, manifest, version
    // cleanup), not only the report's ingestMs + indexMs. `rebuild` makes a reused --dir measure a
    // real ingest: without it, a corpus already there is a no-op and its "rate" is meaningless.
    const ingestStarted = performance.now();
    const report = await store.ingest(dataset, { corpus: `${name}-open`, levels: ['passage'], embedder, rebuild: true });
    const wallMs = performance.now() - ingestStarted;
    const passages = dataset.passages.length;
    ingestRows.push(
      `| ${name} | ${passages} | ${(passages / (wallMs / 1000)).toFixed(0)} | ${ms(wallMs)} | ${ms(report.ingestMs)} | ${ms(report.embedMs)} | ${ms(report.indexMs)} |`,
    );
    const questions = dataset.questions.slice(0, queryLimit);
    const table = await store.table(`${name}-open`);
    const retrievers = Object.fromEntries(
      await Promise.all(MODES.map(async (mode) => [mode, await store.retriever(`${name}-open`, { mode, embedder })] as const)),
    ) as Record<SearchMode, LanceRetriever>;

    for (const mode of MODES) {
      const { wrapper, raw } = await latency(retrievers[mode], table, mode, questions, embedder);
      const w = summarizeLatency(wrapper)!;
      const r = summarizeLatency(raw)!;
      latencyRows.push(`| ${name} | ${mode} | ${ms(w.p50)} | ${ms(w.p95)} | ${ms(r.p50)} | ${ms(r.p95)} | ${(w.p50 / r.p50).toFixed(2)}× |`);
      (results[`${name}.${mode}.latency`] = { wrapper: w, raw: r });
    }
    for (const mode of MODES) {
      const q = await quality(retrievers[mode], questions);
      qualityRows.push(
        `| ${name} | ${mode} | ${K.map((k) => `${pct(q[k].recall)} | ${pct(q[k].fullRecall)} | ${pct(q[k].ndcg)} | ${pct(q[k].allPass)}`).join(' | ')} |`,
      );
      results[`${name}.${mode}.quality`] = q;
    }
    // The offline reranker on BM25's top 20, to show what reranking the same candidates buys.
    const reranked = await store.retriever(`${name}-open`, { reranker: new LexicalReranker() });
    const rq = await quality(reranked, questions);
    qualityRows.push(
      `| ${name} | bm25 + lexical rerank of top 20 | ${K.map((k) => `${pct(rq[k].recall)} | ${pct(rq[k].fullRecall)} | ${pct(rq[k].ndcg)} | ${pct(rq[k].allPass)}`).join(' | ')} |`,
    );
    results[`${name}.bm25+lexical.quality`] = rq;
    results[`${name}.ingest`] = { passages, wallMs, ingestMs: report.ingestMs, indexMs: report.indexMs };
  }

  console.log('## Ingest (open corpus, passage level, with the hashing embedder)\n');
  console.log('| dataset | passages | passages/s (whole ingest() call) | ingest() ms | of it write ms | of that embed ms | index build ms |\n|---|---|---|---|---|---|---|');
  console.log(ingestRows.join('\n'));
  const pool = (await Promise.all(datasetNames.map((n) => loadDataset(n)))).flatMap((d) => d.passages);
  const rate = embedderRate(pool);
  results.embedder = rate;
  console.log(`\nHashing embedder alone, ${pool.length} real passages, fresh embedder each time (best of 6, interleaved): before issue 14 ${rate.before.toFixed(0)} passages/s; now embed() ${rate.embed.toFixed(0)} (${(rate.embed / rate.before).toFixed(2)}×), embedFloat32() (what ingest uses) ${rate.embedFloat32.toFixed(0)} passages/s (${(rate.embedFloat32 / rate.before).toFixed(2)}×)`);
  console.log('\n## Query latency, k=10, raw question (ms; "LanceDB" = the same query straight on the table)\n');
  console.log('| dataset | mode | p50 | p95 | LanceDB p50 | LanceDB p95 | wrapper/LanceDB p50 |\n|---|---|---|---|---|---|---|');
  console.log(latencyRows.join('\n'));
  console.log('\n## Single-query retrieval quality, raw question as query (%)\n');
  console.log('| dataset | mode | R@5 | full R@5 | NDCG@5 | All-Pass@5 | R@10 | full R@10 | NDCG@10 | All-Pass@10 |\n|---|---|---|---|---|---|---|---|---|---|');
  console.log(qualityRows.join('\n'));

  if (comparePassages > 0) {
    const passages: CorpusPassage[] = [];
    for await (const batch of synthetic(pool, comparePassages)()) passages.push(...batch);
    // compareIngest writes into fresh sub-stores; with a reused --dir, earlier runs' are removed first.
    for (const sub of ['ingest-project', 'ingest-raw']) if (existsSync(join(dir, sub))) rmSync(join(dir, sub), { recursive: true, force: true });
    const { project, raw } = await compareIngest(dir, passages);
    results.ingestCompare = { project, raw };
    const row = (who: string, x: IngestSide) => {
      const total = x.embedMs + x.writeMs + x.indexMs;
      const per = (m: number) => (m > 0 ? (x.passages / (m / 1000)).toFixed(0) : '–');
      return `| ${who} | ${x.passages.toLocaleString('en-US')} | ${(x.embedMs / 1000).toFixed(1)} (${per(x.embedMs)}/s) | ${(x.writeMs / 1000).toFixed(1)} (${per(x.writeMs)}/s) | ${(x.indexMs / 1000).toFixed(1)} | ${(total / 1000).toFixed(1)} | ${per(total)} |`;
    };
    console.log(`\n## Ingest, project vs raw LanceDB: the same ${comparePassages.toLocaleString('en-US')} synthetic passages, passage level, hashing embedder, 10k-row batches\n`);
    console.log('"raw LanceDB" = rows as objects with `vector: number[]` from `embed()`, `table.add` per batch, then optimize + FTS index. The project hands LanceDB Arrow columns (vectors from `embedFloat32`). write = everything in the batch loop but the embedder.\n');
    console.log('| side | passages | embed s (passages/s) | write s (rows/s) | index s | total s | passages/s end to end |\n|---|---|---|---|---|---|---|');
    console.log(row('project (CorpusStore.ingestPassages)', project));
    console.log(row('raw LanceDB', raw));
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(`\nproject/raw time: embed ${ratio(project.embedMs, raw.embedMs)}, write ${ratio(project.writeMs, raw.writeMs)}, index ${ratio(project.indexMs, raw.indexMs)}, total ${ratio(project.embedMs + project.writeMs + project.indexMs, raw.embedMs + raw.writeMs + raw.indexMs)}`);
  }
  if (scalePassages > 0) {
    const questions = (await loadDataset(datasetNames[0] ?? 'hotpotqa-dev')).questions.slice(0, 300);
    const scale = await scaleRun(store, dir, pool, questions, scalePassages, embedder);
    results.scale = scale;
    console.log(`\n## Scale: synthetic corpus of ${scalePassages.toLocaleString('en-US')} passages (vocabulary and lengths of the ${pool.length} real passages), hashing embedder\n`);
    console.log('| passages | generate+ingest s | of it embed s | passages/s | index build s (compaction + FTS) | size on disk | BM25 p50 ms | BM25 p95 ms |\n|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${scalePassages.toLocaleString('en-US')} | ${(scale.ingestMs / 1000).toFixed(1)} | ${(scale.embedMs / 1000).toFixed(1)} | ${(scalePassages / ((scale.ingestMs + scale.indexMs) / 1000)).toFixed(0)} | ${(scale.indexMs / 1000).toFixed(1)} | ${scale.diskMb.toFixed(0)} MB | ${ms(scale.p50)} | ${ms(scale.p95)} |`,
    );
    if (vectorQueries > 0) {
      const v = await vectorIndex(await store.table('synthetic'), questions.slice(0, vectorQueries).map((q) => q.text), embedder);
      results.vectorIndex = v;
      console.log(`\n### Vector index at ${v.rows.toLocaleString('en-US')} rows: ${v.index}, cosine, k = 10, ${v.queries} real ${datasetNames[0] ?? 'hotpotqa-dev'} questions\n`);
      console.log('| nprobes | build s | recall@10 vs exact | indexed p50 ms | indexed p95 ms | exact (flat) p50 ms | exact p95 ms | exact/indexed p50 |\n|---|---|---|---|---|---|---|---|');
      for (const p of v.probes) {
        console.log(`| ${p.nprobes} | ${(v.buildMs / 1000).toFixed(1)} | ${pct(p.recallAt10)}% | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(v.exactP50)} | ${ms(v.exactP95)} | ${(v.exactP50 / p.p50).toFixed(1)}× |`);
      }
    }
  }
  store.close();
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s, peak RSS ${peakMb.toFixed(0)} MB`);
  results.totalSeconds = (Date.now() - started) / 1000;
  results.peakRssMb = peakMb;
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
  if (!args.dir) rmSync(dir, { recursive: true, force: true });
}

/** Wrapper vs raw LanceDB, interleaved per query so drift hits both alike; both include embedding the query. */
async function latency(retriever: LanceRetriever, table: Table, mode: SearchMode, questions: Question[], embedder: HashingEmbedder) {
  const k = 10;
  const lancedb = await import('@lancedb/lancedb');
  const rrf = await lancedb.rerankers.RRFReranker.create(60);
  // The wrapper sends full-text queries as a MatchQuery (never parsed as query syntax); so does the raw side.
  const words = (text: string) => new lancedb.MatchQuery(text, 'search_text');
  const columns = ['id', 'passage_id', 'title', 'text', 'sentence', 'question_id'];
  const rawQuery = async (text: string) => {
    if (mode === 'bm25') return table.query().fullTextSearch(words(text)).select([...columns, '_score']).limit(k).toArray();
    const [vector] = await embedder.embed([text]);
    // Score columns named, as the wrapper does (LanceDB deprecates projecting them implicitly); hybrid takes every column.
    const q = table.query().nearestTo(vector!).distanceType('cosine').limit(k);
    return mode === 'vector' ? q.select([...columns, '_distance']).toArray() : q.fullTextSearch(words(text)).rerank(rrf).toArray();
  };
  for (const q of questions.slice(0, 20)) {
    await retriever.search(q.text, { k });
    await rawQuery(q.text);
  }
  const wrapper: number[] = [];
  const raw: number[] = [];
  for (const [i, q] of questions.entries()) {
    const order = i % 2 === 0 ? ['w', 'r'] : ['r', 'w'];
    for (const which of order) {
      const t = performance.now();
      if (which === 'w') await retriever.search(q.text, { k });
      else await rawQuery(q.text);
      (which === 'w' ? wrapper : raw).push(performance.now() - t);
    }
  }
  return { wrapper, raw };
}

async function quality(retriever: LanceRetriever, questions: Question[]) {
  const sums = Object.fromEntries(K.map((k) => [k, { recall: 0, fullRecall: 0, ndcg: 0, allPass: 0 }])) as Record<
    (typeof K)[number],
    { recall: number; fullRecall: number; ndcg: number; allPass: number }
  >;
  for (const q of questions) {
    const hits: SearchHit[] = await retriever.search(q.text, { k: Math.max(...K) });
    const ids = hits.map((h) => h.id);
    for (const k of K) {
      const s = retrievalScores(ids, q.supportingIds, k);
      sums[k].recall += s.recall;
      sums[k].fullRecall += s.fullRecall;
      sums[k].ndcg += s.ndcg;
      sums[k].allPass += s.allPass;
    }
  }
  for (const k of K) for (const key of Object.keys(sums[k]) as Array<keyof (typeof sums)[5]>) sums[k][key] /= questions.length;
  return sums;
}

/**
 * Synthetic passages: titles and words drawn from the real passages' unigram distributions,
 * lengths from their length distribution, with a seeded generator so every run builds the same corpus.
 */
async function scaleRun(store: CorpusStore, dir: string, pool: CorpusPassage[], questions: Question[], total: number, embedder: HashingEmbedder) {
  const batchSize = 50_000;
  // The vector index is built (and timed) apart, by vectorIndex(). `rebuild`: a reused --dir's
  // synthetic corpus would otherwise take no new rows. No reader shares the bench's store, so old
  // versions go at once (keepOldVersionsMs: 0) and the size on disk is the corpus's, not twice it.
  const report = await store.ingestPassages(synthetic(pool, total, batchSize), {
    corpus: 'synthetic',
    source: `synthetic:${total}`,
    levels: ['passage'],
    batchSize,
    embedder,
    vectorIndexMinRows: Infinity,
    rebuild: true,
    keepOldVersionsMs: 0,
  });
  const retriever = await store.retriever('synthetic');
  for (const q of questions.slice(0, 20)) await retriever.search(q.text, { k: 10 });
  const times: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await retriever.search(q.text, { k: 10 });
    times.push(performance.now() - t);
  }
  const lat = summarizeLatency(times)!;
  const diskMb = Number(execFileSync('du', ['-sm', join(dir, 'synthetic__passage.lance')]).toString().split(/\s/)[0]);
  return { ingestMs: report.ingestMs, embedMs: report.embedMs, indexMs: report.indexMs, diskMb, p50: lat.p50, p95: lat.p95 };
}

/** The synthetic corpus's batches; every call starts the same seeded sequence again. */
function synthetic(pool: CorpusPassage[], total: number, batchSize = 50_000): () => AsyncIterable<CorpusPassage[]> {
  const words = new Map<string, number>();
  const titleWords = new Map<string, number>();
  const lengths: number[] = [];
  for (const p of pool) {
    const tokens = p.text.split(/\s+/).filter(Boolean);
    lengths.push(tokens.length);
    for (const t of tokens) words.set(t, (words.get(t) ?? 0) + 1);
    for (const t of p.title.split(/\s+/)) titleWords.set(t, (titleWords.get(t) ?? 0) + 1);
  }
  return async function* batches(): AsyncIterable<CorpusPassage[]> {
    const random = mulberry32(20261122);
    const sampleWord = sampler(words, random);
    const sampleTitle = sampler(titleWords, random);
    for (let start = 0; start < total; start += batchSize) {
      const batch: CorpusPassage[] = [];
      for (let i = start; i < Math.min(total, start + batchSize); i++) {
        const length = lengths[Math.floor(random() * lengths.length)] ?? 50;
        const text = Array.from({ length }, sampleWord).join(' ');
        const title = `${sampleTitle()} ${sampleTitle()}`;
        batch.push({ id: `syn-${i}`, title, text, sentences: [text] });
      }
      yield batch;
    }
  };
}

function sampler(counts: Map<string, number>, random: () => number): () => string {
  const keys = [...counts.keys()];
  const cumulative: number[] = [];
  let sum = 0;
  for (const key of keys) cumulative.push((sum += counts.get(key) ?? 0));
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return keys[lo] ?? '';
  };
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function nprocs(): number {
  try {
    return Number(execFileSync('nproc').toString().trim());
  } catch {
    return cpus().length;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
