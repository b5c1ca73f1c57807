/**
 * `npm run bench:durable`: what a durable run costs (docs/durable-runs.md, "What it costs"):
 * PAR²-RAG (LangGraph) and OPERA (XState) on real hotpotqa-dev questions, the offline model,
 * retrieving from the pooled corpus of the whole file (the open setting, as `multihop eval`
 * does), each question run plainly and durably on a SQLite store (a thread per run, dropped after
 * it as an eval drops a recorded pair's), in alternating rounds in one process: ms per run of
 * each, and their ratio. Then the bytes a durable run leaves in the store: the SQLite file's
 * growth over the runs, threads kept, divided by the runs.
 *
 * Flags: --questions=N (default 40), --rounds=N (default 3).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCheckpointStore } from '@multihop/checkpoint';
import { createModel, type Workflow } from '@multihop/core';
import { createOfflineProvider } from '@multihop/offline-model';
import { opera } from '@multihop/opera';
import { offlineHandlers as operaHandlers } from '@multihop/opera/offline';
import { par2Rag } from '@multihop/par2-rag';
import { offlineHandlers as par2Handlers } from '@multihop/par2-rag/offline';
import { openDatasetCorpus } from '@multihop/retriever';
import { benchFlags, median } from './flags';

const args = benchFlags({ questions: 'count', rounds: 'count' });
const QUESTIONS = Number(args['questions'] ?? 40);
const ROUNDS = Number(args['rounds'] ?? 3);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-bench-durable-'));
  const corpus = await openDatasetCorpus('hotpotqa-dev', { setting: 'open', uri: join(dir, 'lance') });
  try {
    const questions = corpus.dataset.questions.slice(0, QUESTIONS);
    const model = createModel({ provider: createOfflineProvider({ handlers: [...par2Handlers, ...operaHandlers] }) });
    console.log(`durable runs: ${questions.length} hotpotqa-dev questions (open setting, ${corpus.report.corpus}), offline model, ${ROUNDS} rounds; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
    console.log('| workflow (engine) | plain ms/run | durable ms/run | durable / plain | stored per durable run |');
    console.log('|---|---|---|---|---|');
    for (const [label, workflow] of [['par2-rag (LangGraph)', par2Rag()], ['opera (XState)', opera()]] as Array<[string, Workflow]>) {
      const store = await openCheckpointStore(join(dir, `${workflow.id}-timed.sqlite`));
      const plain: number[] = [];
      const durable: number[] = [];
      const runAll = async (mode: 'plain' | 'durable', round: number): Promise<number> => {
        const t = performance.now();
        for (const question of questions) {
          const thread = `${mode}-${round}-${question.id}`;
          const result = await workflow.run(question, { model, retriever: corpus.retriever.forQuestion(question.id), ...(mode === 'durable' ? { durable: store.durable(thread) } : {}) });
          if (result.status === 'error') throw new Error(`${workflow.id} ${question.id}: ${result.error?.message}`);
          if (mode === 'durable') await store.deleteThread(thread);
        }
        return (performance.now() - t) / questions.length;
      };
      await runAll('plain', -1); // warm: module code, the corpus's tables, the offline model's caches
      await runAll('durable', -1);
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating which goes first, so neither always meets the warmer machine.
        if (round % 2 === 0) {
          plain.push(await runAll('plain', round));
          durable.push(await runAll('durable', round));
        } else {
          durable.push(await runAll('durable', round));
          plain.push(await runAll('plain', round));
        }
      }
      await store.close();
      // What a durable run leaves in the store, threads kept: the file's size after the runs, less an empty store's.
      const empty = join(dir, `${workflow.id}-empty.sqlite`);
      await (await openCheckpointStore(empty)).close();
      const sized = join(dir, `${workflow.id}-sized.sqlite`);
      const kept = await openCheckpointStore(sized);
      for (const question of questions) await workflow.run(question, { model, retriever: corpus.retriever.forQuestion(question.id), durable: kept.durable(`kept-${question.id}`) });
      await kept.close();
      const perRun = (statSync(sized).size - statSync(empty).size) / questions.length;
      const [p, d] = [median(plain), median(durable)];
      console.log(`| ${label} | ${p.toFixed(1)} | ${d.toFixed(1)} | ${(d / p).toFixed(2)}× | ${(perRun / 1024).toFixed(0)} KB |`);
    }
    console.log('Medians over the rounds; every figure is the offline model\u2019s (no network latency, so the store\u2019s share is as large as it gets).');
  } finally {
    corpus.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
