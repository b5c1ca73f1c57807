import { MultihopError } from '@multihop/core';
import { hotpotCases } from '../test/hotpot';
import { coverageGraph, coverageWorkflow, noModel } from '../test/coverageLoop';
import { RUNTIME_KEY, runtimeOf } from './runtimeOf';

const cases = hotpotCases(3);

describe('the per-run runtime, under one configurable key for every graph', () => {
  it('fails clearly when a graph is invoked without its runtime', async () => {
    const compiled = coverageGraph({ parts: 2, k: 2, titlesWanted: 1, maxHops: 1 });
    const run = compiled.graph.invoke({ question: cases[0]!.query.text }, {});
    await expect(run).rejects.toThrow(MultihopError);
    await expect(compiled.graph.invoke({ question: cases[0]!.query.text }, { configurable: { ctx: {} } })).rejects.toMatchObject({
      code: 'LANGGRAPH_RUNTIME',
      message: expect.stringContaining(`configurable: { ${RUNTIME_KEY}: { ctx`),
    });
  });

  it('rejects a runtime without a run context', () => {
    expect(() => runtimeOf({ configurable: { [RUNTIME_KEY]: { reranker: {} } } })).toThrow(/without its run runtime/);
    expect(() => runtimeOf(undefined)).toThrow(MultihopError);
  });

  it('gives every node and router the run’s own runtime: the method’s extras are built once per run', async () => {
    const workflow = coverageWorkflow({ parts: 2, k: 2, titlesWanted: 1, maxHops: 1 });
    const numbers: unknown[] = [];
    for (const c of cases) {
      const result = await workflow.run(c.query, { model: noModel(), retriever: c.retriever });
      numbers.push(result.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'merged')?.data['runNumber']);
      // The runtime's ctx is this run's: evidence and the query are the run's own.
      expect(result.data?.['query']).toBe(c.query.id);
      expect(result.evidenceIds.length).toBeGreaterThan(0);
    }
    expect(numbers).toEqual([1, 2, 3]);
  });
});
