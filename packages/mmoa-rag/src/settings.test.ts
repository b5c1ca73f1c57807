import { offlineModel } from '@multihop/offline-model';
import { conformanceSample, overlapRetriever } from '@multihop/conformance';
import { manifest } from './manifest';
import { offlineHandlers } from './offline';
import { MMOA_RAG_DEFAULTS } from './settings';

describe('MMOA-RAG settings', () => {
  const entry = (id: string) => manifest.workflows.find((w) => w.id === id)!;

  it('default to the paper’s settings', () => {
    expect(entry('mmoa-rag').settings!.parse({})).toEqual(MMOA_RAG_DEFAULTS);
    expect(entry('mmoa-rag-no-selector').settings!.parse({})).toEqual(MMOA_RAG_DEFAULTS);
    // Without a Query Rewriter there are no sub-question limits to set.
    expect(Object.keys(entry('mmoa-rag-no-rewriter').settings!.parse({}))).toEqual(['candidates', 'topK', 'maxAnswerWords']);
  });

  it('refuse a value the workflow cannot use', () => {
    expect(entry('mmoa-rag').settings!.safeParse({ candidates: 0 }).success).toBe(false);
    expect(entry('mmoa-rag').settings!.safeParse({ maxSubQuestions: 1.5 }).success).toBe(false);
  });

  it('take effect in the workflow the manifest builds', async () => {
    // A real HotpotQA train question and its own paragraphs, searched by term overlap.
    const [sample] = conformanceSample(1);
    const e = entry('mmoa-rag-no-selector');
    const workflow = e.create(e.settings!.parse({ candidates: 3 }));
    const result = await workflow.run(sample!.question, { model: offlineModel({ handlers: offlineHandlers }), retriever: overlapRetriever(sample!.passages) });
    // Without a Selector the Generator reads (and the evidence holds) every one of the K candidates.
    expect(result.evidenceIds).toHaveLength(3);
  });
});
