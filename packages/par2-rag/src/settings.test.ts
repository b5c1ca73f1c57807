import { createModel, createScriptedProvider, type RunResult } from '@multihop/core';
import { conformanceSample, overlapRetriever } from '@multihop/conformance';
import { manifest } from './manifest';
import { PAR2_DEFAULTS } from './settings';

const entry = (id: string) => manifest.workflows.find((w) => w.id === id)!;

describe('PAR²-RAG settings schemas', () => {
  it('default to the paper’s settings: each variant’s schema parses {} to PAR2_DEFAULTS, less what it does not use', () => {
    expect(entry('par2-rag').settings!.parse({})).toEqual(PAR2_DEFAULTS);
    const { hopBudget: _h, ...anchor } = PAR2_DEFAULTS;
    expect(entry('par2-coverage-anchor').settings!.parse({})).toEqual(anchor);
    const { subQueries: _m, ...chain } = PAR2_DEFAULTS;
    expect(entry('par2-iterative-chain').settings!.parse({})).toEqual(chain);
  });

  it('refuses, from a library caller, a setting the variant does not have rather than running without it', () => {
    expect(() => entry('par2-coverage-anchor').create({ hopBudget: 3 })).toThrow('par2-coverage-anchor: no option "hopBudget"; it takes settings subQueries, retrieveK, rerankK, rerankWith; options reranker');
    expect(() => entry('par2-iterative-chain').create({ subQueries: 3 })).toThrow(/^par2-iterative-chain: no option "subQueries"/);
  });

  it('rejects what the graph cannot use', () => {
    const schema = entry('par2-rag').settings!;
    expect(schema.safeParse({ hopBudget: 0 }).success).toBe(false);
    expect(schema.safeParse({ rerankK: 2.5 }).success).toBe(false);
    expect(schema.safeParse({ subQueries: '3' }).success).toBe(false);
  });

  it('a parsed hopBudget takes effect in the built graph: the chain runs to it, not to the default H', async () => {
    // One real HotpotQA train question and its ten paragraphs; each follow-up names a paragraph the context lacks.
    const [sample] = conformanceSample(1);
    const titles = sample!.passages.map((p) => p.title);
    const run = async (settings: Record<string, unknown>): Promise<RunResult> => {
      let n = 0;
      const provider = createScriptedProvider({
        replies: {
          'par2-planner': [JSON.stringify({ searches: [{ reason: 'start', query: titles[0] }] })],
          'par2-writer': [() => JSON.stringify({ reasoning: 'r', answer: `draft ${n + 1}` })],
          'par2-esc': [JSON.stringify({ decision: 'CONTINUE', query: 'more', rationale: 'a fact is missing' })],
          'par2-query-formulator': [() => JSON.stringify({ query: titles[titles.length - 1 - n++] })],
        },
        repeatLast: true,
      });
      const workflow = entry('par2-rag').create(entry('par2-rag').settings!.parse(settings));
      return workflow.run(sample!.question, { model: createModel({ provider }), retriever: overlapRetriever(sample!.passages) });
    };
    const seven = await run({ hopBudget: 7, rerankK: 1 });
    expect(seven).toMatchObject({ status: 'partial', stopReason: 'hop-budget' });
    expect(seven.usage.byRole['par2-writer']?.calls).toBe(7);
    expect(seven.data?.['settings']).toEqual({ ...PAR2_DEFAULTS, hopBudget: 7, rerankK: 1 });
    const byDefault = await run({ rerankK: 1 });
    expect(byDefault).toMatchObject({ status: 'partial', stopReason: 'hop-budget' });
    expect(byDefault.usage.byRole['par2-writer']?.calls).toBe(PAR2_DEFAULTS.hopBudget);
  });

  it('rerankWith llm reranks each retrieval with the run’s model (the shared reranker prompt, at the retrieval nodes); lexical calls no model', async () => {
    // HotpotQA train 5a77ec115542992a6e59dff7 ("If Gallu is a demon Lilu is what?") and its ten paragraphs.
    const [sample] = conformanceSample(1);
    const run = async (settings: Record<string, unknown>): Promise<RunResult> => {
      const provider = createScriptedProvider({
        replies: {
          'par2-planner': [JSON.stringify({ searches: [{ reason: 'start', query: sample!.question.text }] })],
          'par2-writer': [JSON.stringify({ reasoning: 'r', answer: 'a spirit' })],
          'par2-esc': [JSON.stringify({ decision: 'STOP', query: '', rationale: 'supported' })],
          // The model ranks the candidates backwards: what it keeps shows it was asked.
          reranker: [(request) => JSON.stringify({ ranking: [...((request.vars['candidates'] as unknown[]) ?? []).keys()].reverse() })],
        },
        repeatLast: true,
      });
      const workflow = entry('par2-coverage-anchor').create(entry('par2-coverage-anchor').settings!.parse(settings));
      return workflow.run(sample!.question, { model: createModel({ provider }), retriever: overlapRetriever(sample!.passages, 10) });
    };
    const byModel = await run({ rerankWith: 'llm', retrieveK: 10, rerankK: 2 });
    const reranks = byModel.trace.filter((e) => e.kind === 'llm' && e.data['promptId'] === 'retriever.rerank');
    expect(reranks.map((e) => e.node)).toEqual(['rerank_dedupe']);
    expect(byModel.usage.byRole['reranker']?.calls).toBe(1);
    // The two kept are the search's last two, in the model's order.
    const searched = byModel.trace.find((e) => e.kind === 'retrieve')!.data['hits'] as Array<{ id: string }>;
    expect(byModel.evidenceIds.slice(0, 2)).toEqual([searched.at(-1)!.id, searched.at(-2)!.id]);
    const lexical = await run({ retrieveK: 10, rerankK: 2 });
    expect(lexical.usage.byRole['reranker']).toBeUndefined();
    expect(lexical.trace.some((e) => e.kind === 'llm' && e.data['promptId'] === 'retriever.rerank')).toBe(false);
  });
});
