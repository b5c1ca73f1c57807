// The README's usage example, run as a test so it cannot rot.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

process.env.MULTIHOP_DATASETS_DIR ??= resolve(__dirname, '../../../../shared/datasets');

it('runs the README example', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'multihop-readme-'));
  const cwd = process.cwd();
  process.chdir(dir); // the example writes .multihop/ in the working directory
  try {
    // --- README example start
    const { loadDataset } = await import('@multihop/datasets');
    const { CorpusStore, HashingEmbedder, LexicalReranker } = await import('@multihop/retriever');

    const dataset = await loadDataset('hotpotqa-dev', { limit: 50 });
    const store = await CorpusStore.open(); // .multihop/lancedb here; or { uri: 's3://bucket/db' }
    const embedder = new HashingEmbedder(); // offline; OpenAIEmbedder for real embeddings

    await store.ingest(dataset, { setting: 'closed', embedder }); // corpus "hotpotqa-dev-closed"
    await store.ingest(dataset, { setting: 'closed', embedder }); // idempotent: adds nothing
    console.log(await store.manifest('hotpotqa-dev-closed'));

    const retriever = await store.retriever('hotpotqa-dev-closed', { mode: 'hybrid', embedder });
    const q = dataset.questions[0]!;
    const hits = await retriever.search(q.text, { k: 5, questionId: q.id }); // the question's own 10 paragraphs
    const sentences = await retriever.search(q.text, { k: 5, questionId: q.id, level: 'sentence', mode: 'bm25' });

    const lexical = await store.retriever('hotpotqa-dev-closed', { reranker: new LexicalReranker() });
    const top2 = await lexical.search(q.text, { k: 2, questionId: q.id, candidates: 10 }); // rerank the top 10
    console.log(hits.map((h) => `${h.rank}. ${h.id} ${h.score.toFixed(3)}`), sentences[0], top2);
    store.close();
    // --- README example end

    expect(hits.length).toBe(5);
    expect(hits.some((h) => q.supportingIds.includes(h.id))).toBe(true);
    expect(sentences[0]?.passageId).toBeDefined();
    expect(top2).toHaveLength(2);
  } finally {
    process.chdir(cwd);
  }
});
