import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCheckpointStore } from '@multihop/checkpoint';
import { createModel, type ModelPort, type RetrieverPort } from '@multihop/core';
import { createOfflineProvider } from '@multihop/offline-model';
import { par2Rag } from '@multihop/par2-rag';
import { offlineHandlers } from '@multihop/par2-rag/offline';

const passages = [
  { id: 'p1', title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 American comedy film starring Shirley Temple as Corliss Archer.' },
  { id: 'p2', title: 'Shirley Temple', text: 'Shirley Temple Black was an American actress who later served as United States Ambassador to Ghana.' },
  { id: 'p3', title: 'Ghana', text: 'Ghana is a country in West Africa.' },
];
const question = { id: 'q1', text: 'What government position was held by the actress who played Corliss Archer in Kiss and Tell?' };

// The offline model, counted: how many calls reach it in each "process".
let calls = 0;
const offline = createModel({ provider: createOfflineProvider({ handlers: offlineHandlers }) });
const model: ModelPort = { modelFor: (role) => offline.modelFor(role), call: async (request) => ((calls += 1), offline.call(request)) };
// Passages ranked by the words they share with the query (any RetrieverPort will do).
const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const retriever: RetrieverPort = {
  async search(query, options = {}) {
    const q = words(query);
    const scored = passages.map((p) => ({ ...p, score: [...words(`${p.title} ${p.text}`)].filter((w) => q.has(w)).length }));
    return scored.sort((a, b) => b.score - a.score).slice(0, options.k ?? 3).map((p, i) => ({ ...p, rank: i + 1 }));
  },
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'checkpoint-example-'));
  const file = join(dir, 'checkpoints.sqlite');

  // First process: the run is cut short after its first model call (a crash would do the same).
  let store = await openCheckpointStore(file);
  const crash = new AbortController();
  const cut = await par2Rag().run(question, {
    model: {
      ...model,
      call: async (request) => {
        const out = await model.call(request);
        crash.abort();
        return out;
      },
    },
    retriever,
    signal: crash.signal,
    durable: store.durable('thread-1'),
  });
  assert.equal(cut.stopReason, 'aborted');
  assert.equal(calls, 1);
  await store.close();

  // Second process: same thread, same store. The run continues from its last checkpoint.
  store = await openCheckpointStore(file);
  calls = 0;
  const resumed = await par2Rag().run(question, { model, retriever, durable: store.durable('thread-1') });
  const uninterrupted = await par2Rag().run(question, { model: offline, retriever });
  assert.equal(resumed.answer, uninterrupted.answer);
  assert.equal(calls, uninterrupted.usage.llmCalls - 1); // the first call is not made again
  console.log(`answer (the offline model's): ${resumed.answer}; calls after the resume: ${calls} of ${uninterrupted.usage.llmCalls}`);

  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
