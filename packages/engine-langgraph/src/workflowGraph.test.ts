import { Annotation, END, Send, START } from '@langchain/langgraph';
import { MultihopError, toMermaid, validateChart } from '@multihop/core';
import { hotpotCases } from '../test/hotpot';
import { coverageGraph, coverageWorkflow, noModel } from '../test/coverageLoop';
import { defineGraphWorkflow } from './defineGraphWorkflow';
import { last } from './last';
import { workflowGraph } from './workflowGraph';

const [first, second] = hotpotCases(2);
const settings = { parts: 3, k: 2, titlesWanted: 10, maxHops: 2 };

describe('workflowGraph: each node named once, each router named by its function', () => {
  it('runs a node body as the chart node of its name: enter and exit events, its retrievals traced under it', async () => {
    const result = await coverageWorkflow(settings).run(first!.query, { model: noModel(), retriever: first!.retriever });
    expect(result.status).toBe('ok');
    const enters = result.trace.filter((e) => e.kind === 'enter').map((e) => e.node);
    expect(enters).toEqual(['plan', 'search', 'search', 'search', 'merge', 'check', 'follow_up', 'check']);
    expect(result.trace.filter((e) => e.kind === 'exit')).toHaveLength(enters.length);
    // The `enter` option puts the branch's own data on its enter event.
    expect(result.trace.filter((e) => e.node === 'search' && e.kind === 'enter').map((e) => e.data['branch']).sort()).toEqual([0, 1, 2]);
    const retrievals = result.trace.filter((e) => e.kind === 'retrieve');
    expect(retrievals.map((e) => e.node)).toEqual(['search', 'search', 'search', 'follow_up']);
    expect(result.usage.retrievalCalls).toBe(4);
  });

  it('draws the chart from the compiled graph, guards and node kinds from what was registered', () => {
    const compiled = coverageGraph(settings);
    const chart = compiled.chart({ id: 'coverage-loop', title: 'Coverage loop' });
    expect(validateChart(chart)).toEqual([]);
    expect(chart.nodes.map((n) => n.id).sort()).toEqual(Object.keys(compiled.graph.getGraph().nodes).sort());
    expect(chart.nodes.find((n) => n.id === 'search')?.kind).toBe('parallel');
    expect(chart.nodes.find((n) => n.id === 'check')).toEqual({ id: 'check', label: 'enough?', kind: 'choice' });
    expect(chart.guards.sort()).toEqual(['coverageReached', 'oneBranchPerSubQuery']);
    expect(chart.edges).toEqual(
      expect.arrayContaining([
        { from: '__start__', to: 'plan', kind: 'always' },
        { from: 'plan', to: 'search', kind: 'fanout', guard: 'oneBranchPerSubQuery' },
        { from: 'check', to: 'follow_up', kind: 'conditional', guard: 'coverageReached', label: 'CONTINUE' },
        { from: 'check', to: '__end__', kind: 'conditional', guard: 'coverageReached', label: 'STOP' },
        { from: 'follow_up', to: 'check', kind: 'always' },
      ]),
    );
    expect(toMermaid(chart)).toContain('==>');
  });

  const Counter = Annotation.Root({ n: last<number>(() => 0) });

  it('refuses a router without a name: the chart would have no guard to show', () => {
    const graph = workflowGraph(Counter)
      .node('step', (s) => ({ n: s.n + 1 }))
      .edge(START, 'step')
      .route('step', (s) => (s.n < 2 ? 'again' : 'done'), { again: 'step', done: END });
    expect(() => graph.compile()).toThrow(MultihopError);
    expect(() => graph.compile()).toThrow(/has no name/);
  });

  it('refuses a node named like a state channel when it is registered, not at compile time with LangGraph’s stack', () => {
    let thrown: unknown;
    try {
      workflowGraph(Counter).node('n', () => ({}));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MultihopError);
    expect((thrown as MultihopError).code).toBe('LANGGRAPH_GRAPH');
    expect((thrown as Error).message).toMatch(/^node "n" has the name of a state channel; LangGraph needs node and channel names distinct/);
    // A node named for what it does is fine beside the channel it writes.
    expect(() => workflowGraph(Counter).node('count', (s) => ({ n: s.n + 1 }))).not.toThrow();
  });

  it('refuses a node registered twice, and a second router on the same node', () => {
    const graph = workflowGraph(Counter).node('step', () => ({}));
    expect(() => graph.node('step', () => ({}))).toThrow(/registered twice/);
    function firstRouter() {
      return 'done' as const;
    }
    function secondRouter() {
      return 'done' as const;
    }
    graph.edge(START, 'step').route('step', firstRouter, { done: END }).route('step', secondRouter, { done: END });
    expect(() => graph.compile()).toThrow(/two routers \(firstRouter, secondRouter\)/);
  });

  it('fails the run, naming the router, when a router returns a branch it did not declare', async () => {
    function countedTwice(s: typeof Counter.State) {
      return (s.n >= 2 ? 'finished' : 'again') as 'again' | 'done';
    }
    const graph = workflowGraph(Counter)
      .node('step', (s) => ({ n: s.n + 1 }))
      .edge(START, 'step')
      .route('step', countedTwice, { again: 'step', done: END })
      .compile();
    const workflow = defineGraphWorkflow({ id: 'counter', title: 'Counter', paper: 'none', graph, input: () => ({}), output: (s) => ({ answer: String(s.n) }) });
    const result = await workflow.run(first!.query, { model: noModel(), retriever: first!.retriever });
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'LANGGRAPH_ROUTE', message: expect.stringContaining('router countedTwice returned "finished"') });
    expect(result.trace.filter((e) => e.kind === 'enter')).toHaveLength(2);
  });

  it('fails the run when a fan-out router sends to a node it did not declare', async () => {
    const Fan = Annotation.Root({ items: last<string[]>(() => ['a', 'b']), seen: last<string>(() => '') });
    function sendAnywhere(s: typeof Fan.State) {
      return s.items.map((item) => new Send('elsewhere', { seen: item }));
    }
    const graph = workflowGraph(Fan)
      .node('split', () => ({}))
      .node('work', () => ({}))
      .node('elsewhere', () => ({}))
      .edge(START, 'split')
      .fanOut('split', sendAnywhere, ['work'])
      .edge('work', 'elsewhere')
      .edge('elsewhere', END)
      .compile();
    const workflow = defineGraphWorkflow({ id: 'fan', title: 'Fan', paper: 'none', graph, input: () => ({}), output: () => ({ answer: '' }) });
    const result = await workflow.run(second!.query, { model: noModel(), retriever: second!.retriever });
    expect(result.error).toMatchObject({ code: 'LANGGRAPH_ROUTE', message: expect.stringContaining('sendAnywhere must return Send packets to work') });
    expect(result.trace.filter((e) => e.node === 'elsewhere')).toEqual([]);
  });
});
