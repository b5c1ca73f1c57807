/**
 * `npm run bench:engine`: what the engine (LangGraph + the traced, metered RunContext) costs.
 *
 * 1. Engine overhead — PAR²-RAG over real HotpotQA questions with a zero-latency scripted model,
 *    against a plain async implementation of the same algorithm (Algorithm 1) calling the same
 *    model port and the same LanceDB retriever: ms per run of each, and their ratio.
 * 2. Fan-out — with 200 ms simulated latency per model call, Stage 1 (planner, 5 parallel
 *    retrievals, LLM rerank of each) plus the write: wall time against the critical path of
 *    model latencies (sequential model stages × latency), and against all calls in series.
 * 3. The XState path — OPERA through @multihop/engine-xstate against the same algorithm as plain
 *    async code (engineOpera.ts), on real MuSiQue questions with sentence retrieval.
 *
 * Flags: --questions=N (default 200), --rounds=N (default 3), --fanout-runs=N (default 5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, defineWorkflow, loopProgress, type ModelPort, type ProviderRequest, type Question, type RetrieverPort, type SearchHit } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import {
  mergeRoundRobin,
  PAR2_DEFAULTS,
  par2CoverageAnchor,
  par2EscPrompt,
  par2PlannerPrompt,
  par2QueryFormulatorPrompt,
  par2Rag,
  par2WriterPrompt,
} from '@multihop/par2-rag';
import type { Reranker } from '@multihop/core';
import { LexicalReranker } from '@multihop/lexical';
import { CorpusStore, LlmReranker } from '@multihop/retriever';
import { benchOpera } from './engineOpera';
import { benchFlags } from './flags';

const args = benchFlags({ questions: 'count', rounds: 'count', 'fanout-runs': 'count' });
const QUESTIONS = Number(args['questions'] ?? 200);
const ROUNDS = Number(args['rounds'] ?? 3);
const FANOUT_RUNS = Number(args['fanout-runs'] ?? 5);
const LATENCY_MS = 200;

/**
 * A scripted model that answers every PAR² role for any question: five sub-queries cut from the
 * question, a fixed answer, and an ESC that asks for one more hop (CONTINUE) and then stops. A run
 * takes plan, 5 retrievals, rerank, anchor, write, ESC, reformulate, and then, when the follow-up
 * adds a passage to C_t, write and ESC once more; in a question's ten paragraphs it mostly adds
 * none (a no-progress stop, which the plain code takes as the graph does). Round 0 counts the calls.
 */
function scriptedPar2(latencyMs = 0) {
  const escCalls = new Map<string, number>();
  const plan = (r: ProviderRequest) => {
    const words = String(r.vars['question']).split(/\s+/);
    const searches = Array.from({ length: 5 }, (_, i) => ({ reason: 'part', query: words.slice(i * 3, i * 3 + 6).join(' ') || String(r.vars['question']) }));
    return JSON.stringify({ searches });
  };
  const esc = (r: ProviderRequest) => {
    const q = String(r.vars['question']);
    const n = (escCalls.get(q) ?? 0) + 1;
    escCalls.set(q, n);
    return JSON.stringify(n === 1 ? { decision: 'CONTINUE', query: `${q} more`, rationale: 'one more hop' } : { decision: 'STOP', query: '', rationale: 'enough' });
  };
  return createScriptedProvider({
    latencyMs,
    repeatLast: true,
    usage: { promptTokens: 100, completionTokens: 10 },
    replies: {
      'par2-planner': [plan],
      'par2-writer': [JSON.stringify({ reasoning: 'r', answer: 'a' })],
      'par2-esc': [esc],
      'par2-query-formulator': [(r) => JSON.stringify({ query: `${String(r.vars['question'])} follow-up` })],
      reranker: [(r) => JSON.stringify({ ranking: (r.vars['candidates'] as unknown[]).map((_, i) => i) })],
    },
  });
}

/**
 * Algorithm 1 as plain async code: the same prompts, model port, retriever and reranker, and the
 * same stops as the graph (the ESC's STOP, H, a repeated query, a retrieval that adds no passage);
 * no graph, no trace. Round 0 checks it answers as the graph does with as many model calls.
 */
async function par2Plain(question: Question, model: ModelPort, retriever: RetrieverPort, reranker: Reranker): Promise<string> {
  const { subQueries: m, retrieveK, rerankK, hopBudget } = PAR2_DEFAULTS;
  const plan = await model.call({ prompt: par2PlannerPrompt, vars: { question: question.text, count: m } });
  const seen = new Set<string>();
  const queries = plan.output.searches.map((s) => s.query).filter((q) => {
    const key = q.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, m);
  const candidates = await Promise.all(queries.map((q) => retriever.search(q, { k: retrieveK })));
  const reranked = await Promise.all(candidates.map((hits, i) => reranker.rerank(queries[i] as string, hits, { k: rerankK })));
  let context: SearchHit[] = mergeRoundRobin(reranked);
  let answer = '';
  for (let hop = 1; ; hop++) {
    const written = (await model.call({ prompt: par2WriterPrompt, vars: { question: question.text, passages: context } })).output;
    answer = written.answer;
    const verdict = (await model.call({ prompt: par2EscPrompt, vars: { question: question.text, response: answer, reasoning: written.reasoning, passages: context, previousQueries: [...queries] } })).output;
    if (verdict.decision === 'STOP' || hop >= hopBudget) break;
    const next = (
      await model.call({
        prompt: par2QueryFormulatorPrompt,
        vars: { question: question.text, response: answer, reasoning: written.reasoning, rationale: verdict.rationale, suggestion: verdict.query, previousQueries: [...queries] },
      })
    ).output.query.trim();
    if (!loopProgress({ query: next, earlierQueries: queries }).progress) break;
    queries.push(next);
    const hits = await reranker.rerank(next, await retriever.search(next, { k: retrieveK }), { k: rerankK });
    const known = new Set(context.map((h) => h.id));
    if (!loopProgress({ query: next, earlierQueries: [], retrievedIds: hits.map((h) => h.id), seenIds: known }).progress) break;
    context = [...context, ...hits.filter((h) => !known.has(h.id))];
  }
  return answer;
}

/** A model port that counts the calls that go through it. */
function counted(model: ModelPort): { port: ModelPort; calls: () => number } {
  let calls = 0;
  return { port: { modelFor: (role) => model.modelFor(role), call: (request) => ((calls += 1), model.call(request)) } as ModelPort, calls: () => calls };
}

const scoped = (retriever: RetrieverPort, question: Question): RetrieverPort => ({
  search: (query, options = {}) => retriever.search(query, { ...options, questionId: question.id }),
});

async function main(): Promise<void> {
  console.log(`# bench:engine — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? ''}), node ${process.version}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'multihop-bench-engine-'));
  const store = await CorpusStore.open({ uri: dir });
  try {
    const dataset = await loadDataset('hotpotqa-dev', { limit: QUESTIONS });
    const report = await store.ingest(dataset, { setting: 'closed', levels: ['passage'] });
    const retriever = await store.retriever(report.corpus);
    const questions = dataset.questions;
    const reranker = new LexicalReranker();

    // 1. Engine overhead. Fresh scripted models per pass keep the ESC's per-question script aligned.
    const workflow = par2Rag({ reranker });
    const engine: number[] = [];
    const plain: number[] = [];
    const answers = { engine: 0, plain: 0 };
    let callsPerRun = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      // Round 0 warms both paths up (JIT, LanceDB caches), is not counted, and checks both do the same work.
      let t = performance.now();
      const m1 = createModel({ provider: scriptedPar2() });
      const byEngine = new Map<string, { answer: string; calls: number }>();
      for (const q of questions) {
        const result = await workflow.run(q, { model: m1, retriever: scoped(retriever, q) });
        // A no-progress stop (a follow-up that adds no passage) is the method's own end, as in plain.
        if (result.status === 'error') throw new Error(`engine run failed: ${result.error?.message ?? result.status}`);
        if (round === 0) byEngine.set(q.id, { answer: result.answer, calls: result.usage.llmCalls });
        if (round > 0) answers.engine++;
      }
      if (round > 0) engine.push((performance.now() - t) / questions.length);
      t = performance.now();
      const m2 = createModel({ provider: scriptedPar2() });
      let calls = 0;
      for (const q of questions) {
        const port = round === 0 ? counted(m2) : undefined;
        const answer = await par2Plain(q, port?.port ?? m2, scoped(retriever, q), reranker);
        if (port) {
          const same = byEngine.get(q.id)!;
          if (answer !== same.answer || port.calls() !== same.calls) throw new Error(`plain PAR² and the workflow disagree on ${q.id}: ${JSON.stringify(answer)} in ${port.calls()} calls vs ${JSON.stringify(same.answer)} in ${same.calls}`);
          calls += port.calls();
        }
        if (round > 0) answers.plain++;
      }
      if (round === 0) callsPerRun = calls / questions.length;
      if (round > 0) plain.push((performance.now() - t) / questions.length);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    // The RunContext alone: as many node visits and decisions as a PAR² run, no graph, no model.
    const contextOnly = defineWorkflow({
      id: 'run-context-only',
      title: 'RunContext only',
      paper: 'bench',
      chart: () => ({ id: 'run-context-only', engine: 'plain', nodes: [], edges: [], guards: [] }),
      async execute(_question, ctx) {
        for (let i = 0; i < 13; i++) await ctx.node(`n${i}`, async () => ctx.decide('step'));
        return { answer: 'a' };
      },
    });
    const m0 = createModel({ provider: scriptedPar2() });
    const t0 = performance.now();
    for (let round = 0; round < ROUNDS; round++) for (const q of questions) await contextOnly.run(q, { model: m0, retriever });
    const contextMs = (performance.now() - t0) / (ROUNDS * questions.length);
    const e = med(engine);
    const p = med(plain);
    console.log(`## Engine overhead: PAR²-RAG, zero-latency scripted model, ${questions.length} real HotpotQA questions (closed corpus, BM25), median of ${ROUNDS} rounds`);
    console.log('| implementation | ms per run | runs |');
    console.log('|---|---|---|');
    console.log(`| LangGraph graph + traced RunContext (par2-rag) | ${e.toFixed(2)} | ${answers.engine} |`);
    console.log(`| plain async, same model port + retriever | ${p.toFixed(2)} | ${answers.plain} |`);
    console.log(`| **ratio engine / plain** | **${(e / p).toFixed(2)}×** | |`);
    console.log(`| of which the RunContext alone (13 traced node visits + decisions, no graph) | ${contextMs.toFixed(2)} | ${ROUNDS * questions.length} |`);
    // At 200 ms a model call (as many a run as round 0 counted), the same absolute overhead is this share of a run.
    const withLatency = p + callsPerRun * LATENCY_MS;
    console.log(`(engine adds ${(e - p).toFixed(2)} ms per run: LangGraph supersteps, trace events, metering, budget checks; ${callsPerRun.toFixed(2)} model calls a run, the same on both sides;`);
    console.log(` with ${LATENCY_MS} ms per model call that is ${((100 * (e - p)) / withLatency).toFixed(1)}% of a ${withLatency.toFixed(0)} ms run)\n`);

    // 2. Fan-out with 200 ms per model call: planner → 5 retrievals → 5 LLM reranks → writer.
    const fanout = par2CoverageAnchor({ reranker: (model) => new LlmReranker(model) });
    const walls: number[] = [];
    let stages = 0;
    let calls = 0;
    for (const q of questions.slice(0, FANOUT_RUNS)) {
      const model = createModel({ provider: scriptedPar2(LATENCY_MS), concurrency: 8 });
      const t = performance.now();
      const result = await fanout.run(q, { model, retriever: scoped(retriever, q) });
      walls.push(performance.now() - t);
      // Model calls in one node that overlap form one stage; stages follow one another.
      const llmNodes = result.trace.filter((ev) => ev.kind === 'llm').map((ev) => ev.node);
      stages = new Set(llmNodes).size;
      calls = llmNodes.length;
      const starts = result.trace.filter((ev) => ev.node === 'retrieve' && ev.kind === 'enter').length;
      if (starts !== 5) throw new Error(`expected 5 parallel retrievals, saw ${starts}`);
    }
    const wall = med(walls);
    const critical = stages * LATENCY_MS;
    const serial = calls * LATENCY_MS;
    console.log(`## Fan-out: Coverage Anchor with ${LATENCY_MS} ms per model call (planner, 5 parallel retrievals, 5 LLM reranks, writer), median of ${walls.length} runs`);
    console.log('| measure | ms |');
    console.log('|---|---|');
    console.log(`| wall time | ${wall.toFixed(0)} |`);
    console.log(`| critical path of model latencies (${stages} sequential stages × ${LATENCY_MS}) | ${critical} |`);
    console.log(`| all ${calls} model calls in series | ${serial} |`);
    console.log(`| **ratio wall / critical path** | **${(wall / critical).toFixed(2)}×** |`);
    console.log(`| ratio wall / series | ${(wall / serial).toFixed(2)}× |`);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  // 3. The XState path: OPERA through engine-xstate against the same algorithm as plain async code.
  console.log('');
  console.log(await benchOpera({ questions: QUESTIONS, rounds: ROUNDS }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
