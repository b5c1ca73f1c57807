import { Annotation, END, START } from '@langchain/langgraph';
import { MultihopError, type RetrieverPort } from '@multihop/core';
import { hotpotCases } from '../test/hotpot';
import { noModel } from '../test/coverageLoop';
import { defineGraphWorkflow } from './defineGraphWorkflow';
import { last } from './last';
import { workflowGraph } from './workflowGraph';

const [c] = hotpotCases(1);

/** Searches with the question, then with each retrieved title in turn, until `enough` titles. */
const Hops = Annotation.Root({
  query: Annotation<string>(),
  titles: last<string[]>(() => []),
  answer: last<string>(() => ''),
});

function hopsWorkflow(enough: number, recursionLimit?: number) {
  function titlesEnough(state: typeof Hops.State) {
    return state.titles.length >= enough ? 'DONE' : 'MORE';
  }
  const graph = workflowGraph(Hops)
    .node('hop', async (state, { ctx }) => {
      ctx.budget.chargeHop();
      const hits = await ctx.retriever.search(state.query, { k: 3 });
      const fresh = hits.find((h) => !state.titles.includes(h.title)) ?? hits[0]!;
      ctx.draft(fresh.title);
      return { titles: [...state.titles, fresh.title], query: fresh.title, answer: fresh.title };
    })
    .edge(START, 'hop')
    .route('hop', titlesEnough, { MORE: 'hop', DONE: END })
    .compile();
  return defineGraphWorkflow({
    id: 'hops',
    title: 'Title hops',
    paper: 'none',
    graph,
    ...(recursionLimit !== undefined ? { recursionLimit } : {}),
    input: (query) => ({ query: query.text }),
    output: (state) => ({ answer: state.answer, data: { titles: state.titles } }),
  });
}

describe('defineGraphWorkflow: a compiled graph as a core Workflow', () => {
  it('builds the input from the query and reads the answer and data from the final state', async () => {
    const result = await hopsWorkflow(3).run(c!.query, { model: noModel(), retriever: c!.retriever });
    expect(result.status).toBe('ok');
    const titles = result.data!['titles'] as string[];
    expect(titles).toHaveLength(3);
    expect(result.answer).toBe(titles[2]);
    expect(result.trace.find((e) => e.kind === 'retrieve')?.data['query']).toBe(c!.query.text);
    expect(result.workflowId).toBe('hops');
  });

  it('passes the caller’s abort signal to LangGraph: an aborted run stops before its next node', async () => {
    const controller = new AbortController();
    const slow: RetrieverPort = {
      async search(query, options) {
        await new Promise((r) => setTimeout(r, 30));
        return c!.retriever.search(query, options);
      },
    };
    setTimeout(() => controller.abort(new Error('user cancelled')), 45);
    const result = await hopsWorkflow(20).run(c!.query, { model: noModel(), retriever: slow, signal: controller.signal });
    expect(result.status).toBe('error');
    expect(result.stopReason).toBe('aborted');
    // Two hops started at most (30 ms each, aborted at 45 ms): the loop of 20 did not go on.
    expect(result.trace.filter((e) => e.kind === 'enter').length).toBeLessThanOrEqual(2);
  });

  it('a run aborted before it starts takes no edge and enters no node', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled before the start'));
    const result = await hopsWorkflow(3).run(c!.query, { model: noModel(), retriever: c!.retriever, signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', stopReason: 'aborted' });
    expect(result.trace.filter((e) => e.kind === 'transition' || e.kind === 'enter')).toEqual([]);
  });

  describe('a run that ends while a node still waits on work that ignores the abort', () => {
    const stuck = () =>
      defineGraphWorkflow({
        id: 'stuck',
        title: 'A node that waits 400 ms whatever the signal says',
        paper: 'none',
        graph: workflowGraph(Hops)
          .node('hop', async () => {
            await new Promise((r) => setTimeout(r, 400));
            return { answer: 'late' };
          })
          .edge(START, 'hop')
          .edge('hop', END)
          .compile(),
        input: (query) => ({ query: query.text }),
        output: (state) => ({ answer: state.answer }),
      });
    const nodeEvents = (result: Awaited<ReturnType<ReturnType<typeof stuck>['run']>>) =>
      result.trace
        .filter((e) => ['enter', 'exit', 'error'].includes(e.kind) || (e.kind === 'decision' && e.data['decision'] === 'STOP'))
        .map((e) => `${e.node}:${e.kind === 'exit' && e.data['failed'] ? `exit!${String(e.data['reason'])}` : e.kind === 'decision' ? 'STOP' : e.kind}`);

    it('at its deadline: the node is closed, and the STOP is traced at it', async () => {
      const result = await stuck().run(c!.query, { model: noModel(), retriever: c!.retriever, budget: { timeoutMs: 50 } });
      expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:deadline' });
      expect(nodeEvents(result)).toEqual(['hop:enter', 'hop:exit!budget:deadline', 'hop:STOP']);
    });

    it("on the caller's abort: the error is traced at the node, which is closed", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user cancelled')), 50);
      const result = await stuck().run(c!.query, { model: noModel(), retriever: c!.retriever, signal: controller.signal });
      expect(result).toMatchObject({ status: 'error', stopReason: 'aborted' });
      expect(nodeEvents(result)).toEqual(['hop:enter', 'hop:error', 'hop:exit!aborted']);
    });
  });

  it('stops a loop at its recursion limit, keeping the draft answer and the trace so far', async () => {
    const result = await hopsWorkflow(50, 4).run(c!.query, { model: noModel(), retriever: c!.retriever });
    expect(result.status).toBe('error');
    // A bug's loop, named as one: the limit, and what a loop needs.
    expect(result.error).toMatchObject({ code: 'STEP_LIMIT' });
    expect(result.error?.message).toMatch(/^graph "hops" took 4 supersteps without reaching its end \(LangGraph's recursion limit\): a loop needs its own bound/);
    expect(result.trace.filter((e) => e.kind === 'enter')).toHaveLength(4);
    expect(result.answer).not.toBe('');
  });

  it('turns a budget stop inside a node into a labelled partial result', async () => {
    const result = await hopsWorkflow(5).run(c!.query, { model: noModel(), retriever: c!.retriever, budget: { maxHops: 2 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:maxHops' });
    expect(result.trace.filter((e) => e.kind === 'retrieve')).toHaveLength(2);
  });

  describe('parallel branches that fail in the same superstep (LangGraph rejects with an AggregateError)', () => {
    const Pair = Annotation.Root({ query: Annotation<string>(), answer: last<string>(() => '') });
    const twoBranches = (body: (branch: string, ctx: Parameters<Parameters<ReturnType<typeof workflowGraph<typeof Pair.spec>>['node']>[1]>[1]['ctx']) => void | Promise<void>) =>
      defineGraphWorkflow({
        id: 'pair',
        title: 'Two branches in one superstep',
        paper: 'none',
        graph: workflowGraph(Pair)
          .node('left', async (_s, { ctx }) => (await body('left', ctx), {}))
          .node('right', async (_s, { ctx }) => (await body('right', ctx), {}))
          .edge(START, 'left')
          .edge(START, 'right')
          .edge('left', END)
          .edge('right', END)
          .compile(),
        input: (query) => ({ query: query.text }),
        output: (state) => ({ answer: state.answer }),
      });

    it('a budget stop in both branches ends the run partial with its budget label, not UNEXPECTED', async () => {
      // Each branch charges two hops with no await between: both pass the limit of one.
      const result = await twoBranches((_b, ctx) => {
        ctx.draft('kept');
        ctx.budget.chargeHop();
        ctx.budget.chargeHop();
      }).run(c!.query, { model: noModel(), retriever: c!.retriever, budget: { maxHops: 1 } });
      expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:maxHops', answer: 'kept' });
      expect(result.trace.filter((e) => e.kind === 'decision' && e.data['decision'] === 'STOP')).toHaveLength(1);
    });

    it('typed errors in both branches end the run with the first one\'s code and message, each traced at its node', async () => {
      const result = await twoBranches((branch) => {
        throw new MultihopError('SEARCH', `index of ${branch} is gone`);
      }).run(c!.query, { model: noModel(), retriever: c!.retriever });
      expect(result.status).toBe('error');
      expect(result.error).toMatchObject({ code: 'SEARCH', message: expect.stringMatching(/^index of (left|right) is gone$/) });
      expect(result.trace.filter((e) => e.kind === 'error').map((e) => `${e.node}:${String(e.data['code'])}`).sort()).toEqual(['left:SEARCH', 'right:SEARCH']);
    });
  });

  it('a port that rejects with the abort signal\'s reason (as fetch does): traced as ABORTED at the node, not as a bug', async () => {
    const controller = new AbortController();
    const workflow = defineGraphWorkflow({
      id: 'fetching',
      title: 'A node whose work rejects with the signal reason',
      paper: 'none',
      graph: workflowGraph(Hops)
        .node('hop', (_s, { ctx }) => new Promise<Partial<typeof Hops.State>>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true })))
        .edge(START, 'hop')
        .edge('hop', END)
        .compile(),
      input: (query) => ({ query: query.text }),
      output: (state) => ({ answer: state.answer }),
    });
    setTimeout(() => controller.abort(new DOMException('This operation was aborted', 'AbortError')), 30);
    const result = await workflow.run(c!.query, { model: noModel(), retriever: c!.retriever, signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', stopReason: 'aborted', error: { code: 'ABORTED' } });
    const errors = result.trace.filter((e) => e.kind === 'error');
    expect(errors.map((e) => `${e.node}:${String(e.data['code'])}`)).toEqual(['hop:ABORTED']);
    expect(errors[0]!.data['stack']).toBeUndefined();
  });

  it('reads its chart once and keeps it', () => {
    const workflow = hopsWorkflow(2);
    const chart = workflow.chart();
    expect(workflow.chart()).toBe(chart);
    expect(chart.edges).toEqual(expect.arrayContaining([{ from: 'hop', to: 'hop', kind: 'conditional', guard: 'titlesEnough', label: 'MORE' }]));
  });
});
