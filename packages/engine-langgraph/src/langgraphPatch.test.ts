import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { RunnableSequence } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { v5 } from '@langchain/core/utils/uuid';
import { uuid5, uuid6 } from '@langchain/langgraph-checkpoint';
import { defineWorkflow } from '@multihop/core';
import { hotpotCases } from '../test/hotpot';
import { coverageGraph, coverageWorkflow, noModel } from '../test/coverageLoop';
import { runtimeConfig } from './runtimeOf';

// Pins patches/@langchain+langgraph+1.7.3.patch and patches/@langchain+langgraph-checkpoint+1.2.2.patch
// (applied by `patch-package` from the root postinstall). A failure here after an upgrade means a
// patch no longer applies: see this package's README ("Engine overhead") for what each part does,
// and drop it once LangGraph offers the same itself.
const [c] = hotpotCases(1);
const settings = { parts: 3, k: 2, titlesWanted: 10, maxHops: 2 };
const run = () => coverageWorkflow(settings).run(c!.query, { model: noModel(), retriever: c!.retriever });

describe('the LangGraph patches', () => {
  afterEach(() => jest.restoreAllMocks());

  it('LangGraph’s writers and branch runners skip the ambient context: a run builds no LangSmith RunTree', async () => {
    const runWithConfig = jest.spyOn(AsyncLocalStorageProviderSingleton, 'runWithConfig');
    const result = await run();
    expect(result.status).toBe('ok');
    // LangGraph's stream still enters the context to pull each step, asking for no RunTree (the
    // third argument); any other entry builds one.
    expect(runWithConfig).toHaveBeenCalled();
    expect(runWithConfig.mock.calls.filter((call) => call[2] !== true)).toHaveLength(0);
  });

  it('with no callbacks to notify, a node and its writers run as one plain sequence', async () => {
    const sequenceInvoke = jest.spyOn(RunnableSequence.prototype, 'invoke');
    expect((await run()).status).toBe('ok');
    expect(sequenceInvoke).not.toHaveBeenCalled();
  });

  it('with a callback handler, every node still reports its run to it, as LangChain’s sequence does', async () => {
    const started: string[] = [];
    class Recorder extends BaseCallbackHandler {
      name = 'recorder';
      override handleChainStart(_chain: unknown, _inputs: unknown, _runId: string, _parent?: string, _tags?: string[], _meta?: unknown, _type?: string, runName?: string) {
        if (runName) started.push(runName);
      }
    }
    const graph = coverageGraph(settings);
    const workflow = defineWorkflow({
      id: 'with-callbacks',
      title: 'with callbacks',
      paper: 'none',
      chart: () => graph.chart({ id: 'with-callbacks' }),
      async execute(query, ctx) {
        await graph.graph.invoke({ question: query.text }, { ...runtimeConfig({ ctx, runNumber: 1 }), callbacks: [new Recorder()] });
        return { answer: '' };
      },
    });
    const result = await workflow.run(c!.query, { model: noModel(), retriever: c!.retriever });
    expect(result.status).toBe('ok');
    expect(started.filter((n) => ['plan', 'search', 'merge', 'check', 'follow_up'].includes(n)).sort()).toEqual(
      result.trace.filter((e) => e.kind === 'enter').map((e) => e.node).sort(),
    );
  });

  it('checkpoint ids: uuid5 gives the same ids as before, and no checkpoint draws fresh random bytes', async () => {
    const namespace = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    for (const name of ['plan', '["search","3","search","__pregel_push",0]', 'Kiss and Tell (1945 film) — é']) {
      const bytes = new Uint8Array(namespace.replace(/-/g, '').match(/.{2}/g)!.map((b) => parseInt(b, 16)));
      expect(uuid5(name, namespace)).toBe(v5(name, bytes));
    }
    const ids = Array.from({ length: 2000 }, () => uuid6(1));
    expect(new Set(ids).size).toBe(ids.length);
    const getRandomValues = jest.spyOn(globalThis.crypto, 'getRandomValues');
    expect((await run()).status).toBe('ok');
    expect(getRandomValues).not.toHaveBeenCalled();
  });
});
