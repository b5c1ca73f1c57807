import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, defineWorkflow, type ModelPort, type ProviderRequest, type Question, type RetrieverPort, type SearchHit } from '@multihop/core';
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
import { CorpusStore, LexicalReranker, LlmReranker } from '@multihop/retriever';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, value] = a.replace(/^--/, '').split('=');
    return [key ?? '', value ?? 'true'];
  }),
);
const QUESTIONS = Number(args['questions'] ?? 200);
const ROUNDS = Number(args['rounds'] ?? 3);
const FANOUT_RUNS = Number(args['fanout-runs'] ?? 5);
const LATENCY_MS = 200;

/**
 * A scripted model that answers every PAR² role for any question: five sub-queries cut from the
 * question, a fixed answer, and an ESC that asks for one more hop (CONTINUE) and then stops —
 * so every run takes the same path: plan, 5 retrievals, rerank, anchor, 2 × (write, ESC), 1 reformulate.
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

/** Algorithm 1 as plain async code: the same prompts, model port, retriever and reranker; no graph, no trace. */
async function par2Plain(question: Question, model: ModelPort, retriever: RetrieverPort, reranker: Reranker): Promise<string> {
  const { subQueries: m, retrieveK, rerankK, hopBudget } = PAR2_DEFAULTS;
  const plan = await model.call({ prompt: par2PlannerPrompt, vars: { question: question.text, count: m } });
  const queries = plan.output.searches.slice(0, m).map((s) => s.query);
  const candidates = await Promise.all(queries.map((q) => retriever.search(q, { k: retrieveK })));
  const reranked = await Promise.all(candidates.map((hits, i) => reranker.rerank(queries[i] as string, hits, { k: rerankK })));
  let context: SearchHit[] = mergeRoundRobin(reranked);
  let answer = '';
  for (let hop = 1; hop <= hopBudget; hop++) {
    answer = (await model.call({ prompt: par2WriterPrompt, vars: { question: question.text, passages: context } })).output.answer;
    const verdict = (await model.call({ prompt: par2EscPrompt, vars: { question: question.text, response: answer, passages: context } })).output;
    if (verdict.decision === 'STOP' || hop === hopBudget) break;
    const next = (
      await model.call({
        prompt: par2QueryFormulatorPrompt,
        vars: { question: question.text, response: answer, rationale: verdict.rationale, suggestion: verdict.query, previousQueries: queries },
      })
    ).output.query;
    queries.push(next);
    const hits = await reranker.rerank(next, await retriever.search(next, { k: retrieveK }), { k: rerankK });
    const known = new Set(context.map((h) => h.id));
    context = [...context, ...hits.filter((h) => !known.has(h.id))];
  }
  return answer;
}

const scoped = (retriever: RetrieverPort, question: Question): RetrieverPort => ({
  search: (query, options = {}) => retriever.search(query, { ...options, questionId: question.id }),
});


const ONLY = String(args['only'] ?? 'both');
const FAKE = args['fake'] === 'true';
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-scratch-'));
  const store = await CorpusStore.open({ uri: dir });
  try {
    const dataset = await loadDataset('hotpotqa-dev', { limit: QUESTIONS });
    const report = await store.ingest(dataset, { setting: 'closed', levels: ['passage'] });
    const real = await store.retriever(report.corpus);
    const pool: SearchHit[] = Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, title: `T${i}`, text: `passage ${i} about things and people number ${i}`, rank: i + 1, score: 1 / (i + 1) }));
    const fake: RetrieverPort = { search: async (_q, o = {}) => pool.slice(0, o.k ?? 10) };
    const retriever = FAKE ? fake : real;
    const questions = dataset.questions;
    const reranker = new LexicalReranker();
    const workflow = par2Rag({ reranker });
    for (let round = 0; round <= ROUNDS; round++) {
      if (ONLY !== 'plain') {
        const t = performance.now();
        const m1 = createModel({ provider: scriptedPar2() });
        for (const q of questions) {
          const result = await workflow.run(q, { model: m1, retriever: scoped(retriever, q) });
          if (result.status !== 'ok') throw new Error(`engine run failed: ${result.error?.message ?? result.status}`);
        }
        console.log('engine', ((performance.now() - t) / questions.length).toFixed(2));
      }
      if (ONLY !== 'engine') {
        const t = performance.now();
        const m2 = createModel({ provider: scriptedPar2() });
        for (const q of questions) await par2Plain(q, m2, scoped(retriever, q), reranker);
        console.log('plain', ((performance.now() - t) / questions.length).toFixed(2));
      }
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
main().catch((e) => { console.error(e); process.exitCode = 1; });
