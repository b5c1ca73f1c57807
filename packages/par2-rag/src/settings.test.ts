import { createModel, createScriptedProvider, type RunResult } from '@multihop/core';
import { overlapRetriever } from '@multihop/conformance';
import { hotpotDevSample } from '@multihop/testing';
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

  it('rejects what the graph cannot use', () => {
    const schema = entry('par2-rag').settings!;
    expect(schema.safeParse({ hopBudget: 0 }).success).toBe(false);
    expect(schema.safeParse({ rerankK: 2.5 }).success).toBe(false);
    expect(schema.safeParse({ subQueries: '3' }).success).toBe(false);
  });

  it('a parsed hopBudget takes effect in the built graph: the chain runs to it, not to the default H', async () => {
    // One real HotpotQA dev question and its ten paragraphs; each follow-up names a paragraph the context lacks.
    const [sample] = hotpotDevSample(1);
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
});
