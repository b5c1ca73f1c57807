import { createModel, createScriptedProvider } from '@multihop/core';
import { conformanceSample, overlapRetriever } from '@multihop/conformance';
import { manifest } from './manifest';
import { IRCOT_DEFAULTS, REACT_DEFAULTS, SINGLE_TURN_RAG_DEFAULTS } from './settings';

const entry = (id: string) => manifest.workflows.find((w) => w.id === id)!;

describe('baseline settings schemas', () => {
  it('parse {} to each baseline’s defaults; direct and chain-of-thought have none', () => {
    expect(entry('single-turn-rag').settings!.parse({})).toEqual(SINGLE_TURN_RAG_DEFAULTS);
    expect(entry('ircot').settings!.parse({})).toEqual(IRCOT_DEFAULTS);
    expect(entry('react').settings!.parse({})).toEqual(REACT_DEFAULTS);
    expect(Object.keys(entry('direct').settings!.shape)).toEqual([]);
    expect(Object.keys(entry('cot').settings!.shape)).toEqual([]);
  });

  it('refuse a k or step bound below 1, or not an integer', () => {
    expect(entry('ircot').settings!.safeParse({ maxSteps: 0 }).success).toBe(false);
    expect(entry('react').settings!.safeParse({ k: 1.5 }).success).toBe(false);
  });

  it('take effect in the built workflow', async () => {
    const [sample] = conformanceSample(1);
    const model = () =>
      createModel({
        provider: createScriptedProvider({
          replies: { 'rag-answer': [JSON.stringify({ reasoning: 'r', answer: 'x' })], react: [(r) => JSON.stringify({ thought: 't', action: 'search', input: `search ${(r.vars['steps'] as unknown[]).length}` })] },
          repeatLast: true,
        }),
      });
    const rag = await entry('single-turn-rag').create(entry('single-turn-rag').settings!.parse({ k: 2 })).run(sample!.question, { model: model(), retriever: overlapRetriever(sample!.passages) });
    expect(rag.evidenceIds).toHaveLength(2);
    // ReAct with k = 10 observes all ten paragraphs on its first search, so its second one stops the loop.
    const reactRun = await entry('react').create(entry('react').settings!.parse({ k: 10 })).run(sample!.question, { model: model(), retriever: overlapRetriever(sample!.passages) });
    expect(reactRun.evidenceIds).toHaveLength(10);
    expect(reactRun).toMatchObject({ stopReason: 'no-progress' });
    const bounded = await entry('ircot').create(entry('ircot').settings!.parse({ maxSteps: 1 })).run(sample!.question, {
      model: createModel({ provider: createScriptedProvider({ replies: { ircot: [JSON.stringify({ thought: 'Still looking.', answer: null })], 'rag-answer': [JSON.stringify({ reasoning: 'r', answer: 'x' })] } }) }),
      retriever: overlapRetriever(sample!.passages),
    });
    expect(bounded).toMatchObject({ status: 'partial', stopReason: 'step-budget' });
    expect(bounded.usage.byRole['ircot']?.calls).toBe(1);
  });
});
