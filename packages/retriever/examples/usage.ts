import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '@multihop/datasets';
import { LexicalReranker } from '@multihop/lexical';
import { CorpusStore, HashingEmbedder } from '@multihop/retriever';

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'multihop-example-'));
  try {
    const dataset = await loadDataset('hotpotqa-dev', { limit: 50 });
    const store = await CorpusStore.open({ uri: dir }); // CorpusStore.open() alone: .multihop/lancedb here; or { uri: 's3://bucket/db' }
    const embedder = new HashingEmbedder(); // offline; OpenAIEmbedder (@multihop/provider-openai) for real embeddings

    await store.ingest(dataset, { setting: 'closed', embedder }); // corpus "hotpotqa-dev-closed"
    await store.ingest(dataset, { setting: 'closed', embedder }); // idempotent: adds nothing
    console.log(await store.manifest('hotpotqa-dev-closed'));

    const retriever = await store.retriever('hotpotqa-dev-closed', { mode: 'hybrid', embedder });
    const q = dataset.questions[0]!;
    const hits = await retriever.search(q.text, { k: 5, questionId: q.id }); // the question's own 10 paragraphs
    const sentences = await retriever.search(q.text, { k: 5, questionId: q.id, level: 'sentence', mode: 'bm25' });

    const lexical = await store.retriever('hotpotqa-dev-closed', { reranker: new LexicalReranker() }); // any Reranker port
    const top2 = await lexical.search(q.text, { k: 2, questionId: q.id, candidates: 10 }); // rerank the top 10
    console.log(hits.map((h) => `${h.rank}. ${h.id} ${h.score.toFixed(3)}`), sentences[0], top2);
    store.close();

    assert.equal(hits.length, 5);
    assert.ok(hits.some((h) => q.supportingIds.includes(h.id)), 'a gold passage is among the top 5');
    assert.ok(sentences[0]?.passageId, 'sentence hits name their passage');
    assert.equal(top2.length, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
