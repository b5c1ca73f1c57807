/**
 * What running OPERA as an XState machine costs: the workflow (@multihop/opera on
 * @multihop/engine-xstate: a provided actor per run, inspection into transition events, the
 * traced and metered RunContext) against the same algorithm as plain async code (operaPlain.ts),
 * both with a zero-latency scripted model, over real MuSiQue dev questions in the closed
 * setting, retrieving sentence chunks from LanceDB.
 *
 * `benchOpera` returns the markdown; run this file to print it:
 *   node -r @multihop/ts-register tools/bench/src/engineOpera.ts --questions=100 --rounds=3
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, type ModelPort, type ProviderRequest, type Question, type RetrieverPort, type RunResult } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { opera, type TrajectoryEntry } from '@multihop/opera';
import { CorpusStore } from '@multihop/retriever';
import { operaPlain } from './operaPlain';
import { benchFlags, median } from './flags';

/**
 * A scripted model that answers every OPERA role for any question: a two-step plan whose second
 * step has a placeholder, and per sub-goal an insufficient first analysis, one rewrite, and a
 * sufficient second analysis, unless the rewrite finds no sentence the sub-goal has not read (a
 * no-progress stop, as the machine and the plain code both take it). The calls and retrievals a
 * run makes are counted in round 0 and printed. Fresh per pass: it counts analyses per sub-goal.
 */
function scriptedOpera(): ModelPort {
  const analyses = new Map<string, number>();
  const analysis = (r: ProviderRequest) => {
    const key = `${String(r.vars['question'])}\u0000${String(r.vars['subGoal'])}`;
    const n = (analyses.get(key) ?? 0) + 1;
    analyses.set(key, n);
    const passages = r.vars['passages'] as Array<{ title: string }>;
    return JSON.stringify(
      n === 1
        ? { status: 'no', answer: '', analysis: 'the passages do not name it' }
        : { status: 'yes', answer: passages[0]?.title ?? 'unknown', analysis: 'passage 1 names it' },
    );
  };
  const provider = createScriptedProvider({
    repeatLast: true,
    usage: { promptTokens: 100, completionTokens: 10 },
    replies: {
      'opera-plan': [
        (r) =>
          JSON.stringify({
            subGoals: [
              { id: 1, question: String(r.vars['question']), dependsOn: [] },
              { id: 2, question: 'What is known about [entity from step 1]?', dependsOn: [1] },
            ],
          }),
      ],
      'opera-analysis-answer': [analysis],
      'opera-rewrite': [(r) => JSON.stringify({ query: `${String(r.vars['subGoal'])} named`, strategy: 'keyword-expansion', keywords: ['named'] })],
      'opera-synthesis': [(r) => JSON.stringify({ answer: (r.vars['trajectory'] as Array<{ answer: string }>).at(-1)?.answer ?? '', reasoning: 'the last step' })],
    },
  });
  return createModel({ provider });
}


export async function benchOpera(options: { questions: number; rounds: number }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-bench-opera-'));
  const store = await CorpusStore.open({ uri: dir });
  try {
    const dataset = await loadDataset('musique-dev', { limit: options.questions });
    const report = await store.ingest(dataset, { setting: 'closed', levels: ['sentence'] });
    const lance = await store.retriever(report.corpus);
    const questions: Question[] = dataset.questions;
    const scoped = (q: Question): RetrieverPort => lance.forQuestion(q.id);
    const workflow = opera();

    const engine: number[] = [];
    const plain: number[] = [];
    let transitions = 0;
    let events = 0;
    let llmCalls = 0;
    let retrievals = 0;
    for (let round = 0; round <= options.rounds; round++) {
      // Round 0 warms both paths up (JIT, LanceDB caches), is not timed, and checks that the two
      // implementations are one algorithm: the same trajectory memory and answer on every question.
      const results: RunResult[] = [];
      let t = performance.now();
      const m1 = scriptedOpera();
      for (const q of questions) {
        const result = await workflow.run(q, { model: m1, retriever: scoped(q) });
        // A no-progress stop (a rewrite that finds no new sentence) is the method's own end, as in plain.
        if (result.status === 'error') throw new Error(`OPERA run on ${q.id} ended ${result.status}: ${result.error?.message ?? ''}`);
        if (round === 0) results.push(result);
      }
      if (round > 0) engine.push((performance.now() - t) / questions.length);
      t = performance.now();
      const m2 = scriptedOpera();
      for (const [i, q] of questions.entries()) {
        const out = await operaPlain(q, m2, scoped(q));
        if (round === 0) {
          const machine = results[i]!;
          if (out.answer !== machine.answer || out.stopReason !== machine.stopReason || !isDeepStrictEqual(out.memory, machine.data?.['memory'] as TrajectoryEntry[])) {
            throw new Error(`plain OPERA and the workflow disagree on ${q.id}: "${out.answer}" (${out.stopReason ?? 'ok'}) vs "${machine.answer}" (${machine.stopReason ?? 'ok'})`);
          }
        }
      }
      if (round > 0) plain.push((performance.now() - t) / questions.length);
      if (round === 0) {
        transitions = results.reduce((n, r) => n + r.trace.filter((e) => e.kind === 'transition').length, 0) / results.length;
        events = results.reduce((n, r) => n + r.trace.length, 0) / results.length;
        llmCalls = results.reduce((n, r) => n + r.usage.llmCalls, 0) / results.length;
        retrievals = results.reduce((n, r) => n + r.usage.retrievalCalls, 0) / results.length;
      }
    }

    const e = median(engine);
    const p = median(plain);
    const runs = options.rounds * questions.length;
    return [
      `## Engine overhead: OPERA, zero-latency scripted model, ${questions.length} real MuSiQue dev questions (closed corpus, LanceDB sentence chunks, BM25), median of ${options.rounds} rounds`,
      `machine: ${cpus().length} cores (${cpus()[0]?.model ?? ''}), node ${process.version}`,
      '',
      '| implementation | ms per run | runs |',
      '|---|---|---|',
      `| XState machine via @multihop/engine-xstate + traced RunContext (opera) | ${e.toFixed(2)} | ${runs} |`,
      `| plain async, same agents, prompts, model port + retriever | ${p.toFixed(2)} | ${runs} |`,
      `| **ratio engine / plain** | **${(e / p).toFixed(2)}×** | |`,
      '',
      `(each run: ${llmCalls.toFixed(1)} model calls, ${retrievals.toFixed(1)} sentence retrievals, ${transitions.toFixed(1)} traced transitions among ${events.toFixed(1)} trace events;`,
      ` the engine adds ${(e - p).toFixed(2)} ms per run, ${((1000 * (e - p)) / transitions).toFixed(0)} µs per transition taken)`,
      '',
    ].join('\n');
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = benchFlags({ questions: 'count', rounds: 'count' });
  benchOpera({ questions: Number(args['questions'] ?? 100), rounds: Number(args['rounds'] ?? 3) })
    .then((markdown) => console.log(markdown))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
