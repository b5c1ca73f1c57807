import { z } from 'zod';
import { firstThenWait, hotpotDevSample as hotpotDev } from '@multihop/testing';
import type { Chart } from './chart';
import { ProviderError } from './errors';
import { createModel } from './model/createModel';
import type { PromptTemplate } from './model/port';
import { createScriptedProvider } from './model/scripted';
import type { RetrieverPort } from './retriever';
import { isTraceEvent, type TraceEvent } from './types';
import { TraceBus } from './trace';
import { defineWorkflow, routeChoice, routeValue } from './workflow';

const [first] = hotpotDev(1);
if (!first) throw new Error('shared HotpotQA dev sample is missing');
const { question, passages } = first;

/**
 * The question's own ten paragraphs, the first k in the order the file gives them: these tests
 * check how a run records searches, not how a search ranks.
 */
const poolRetriever = (pool: typeof passages): RetrieverPort => ({
  async search(_query, options = {}) {
    return pool.slice(0, options.k ?? 5).map((p, i) => ({ ...p, rank: i + 1, score: 1 / (i + 1) }));
  },
});

const stepSchema = z.object({ answer: z.string(), done: z.boolean() });
const stepPrompt: PromptTemplate<z.infer<typeof stepSchema>> = {
  id: 'test.step',
  role: 'reasoner',
  version: '1',
  schema: stepSchema,
  render: (vars) => [{ role: 'user', content: `${String(vars['question'])}\n${String(vars['context'])}` }],
};

const chart: Chart = {
  id: 'loop',
  engine: 'plain',
  guards: ['done'],
  nodes: [
    { id: 'retrieve', kind: 'step' },
    { id: 'reason', kind: 'choice' },
  ],
  edges: [
    { from: 'retrieve', to: 'reason' },
    { from: 'reason', to: 'retrieve', kind: 'conditional' },
  ],
};

/** A small iterative workflow: retrieve, reason, repeat until the model says done. */
const loop = defineWorkflow({
  id: 'loop',
  title: 'retrieve-reason loop',
  paper: 'test',
  chart: () => chart,
  async execute(q, ctx) {
    let query = q.text;
    for (let hop = 0; ; hop++) {
      ctx.budget.chargeHop();
      const hits = await ctx.node('retrieve', () => ctx.retriever.search(query, { k: 3 }));
      ctx.addEvidence(hits, { query, hop });
      const step = await ctx.node('reason', async () => {
        const { output } = await ctx.model.call({ prompt: stepPrompt, vars: { question: q.text, context: hits.map((h) => h.text).join('\n') } });
        ctx.decide(output.done ? 'STOP' : 'CONTINUE');
        return output;
      });
      ctx.draft(step.answer);
      if (step.done) return { answer: step.answer, data: { hops: hop + 1 } };
      query = `${q.text} ${step.answer}`;
    }
  },
});

const reply = (answer: string, done: boolean) => JSON.stringify({ answer, done });

describe('defineWorkflow / runWorkflow', () => {
  it('runs the body and returns answer, deduplicated evidence, ordered trace and per-role usage', async () => {
    const provider = createScriptedProvider({
      replies: { reasoner: [reply('Shirley Temple', false), reply('Chief of Protocol', true)] },
      usage: { promptTokens: 50, completionTokens: 5 },
    });
    const live: TraceEvent[] = [];
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), onEvent: (e) => live.push(e) });

    expect(result).toMatchObject({ status: 'ok', answer: 'Chief of Protocol', workflowId: 'loop', questionId: question.id, data: { hops: 2 } });
    expect(result.trace.map((e) => `${e.node}:${e.kind}`)).toEqual([
      'retrieve:enter', 'retrieve:retrieve', 'retrieve:exit', 'reason:enter', 'reason:llm', 'reason:decision', 'reason:exit',
      'retrieve:enter', 'retrieve:retrieve', 'retrieve:exit', 'reason:enter', 'reason:llm', 'reason:decision', 'reason:exit',
    ]);
    expect(live).toEqual(result.trace);
    expect(result.trace.map((e) => e.seq)).toEqual(result.trace.map((_, i) => i));
    expect(new Set(result.evidenceIds).size).toBe(result.evidenceIds.length);
    expect(result.evidence.every((e) => passages.some((p) => p.id === e.id))).toBe(true);
    expect(result.usage).toMatchObject({ llmCalls: 2, promptTokens: 100, completionTokens: 10, retrievalCalls: 2, estimated: false });
    expect(result.usage.byRole['reasoner']?.calls).toBe(2);
  });

  it('puts each call’s rendered prompt and reply text in its llm event only when asked (traceMessages)', async () => {
    const replies = { reasoner: [reply('Shirley Temple', false), reply('Chief of Protocol', true)] };
    const plain = await loop.run(question, { model: createModel({ provider: createScriptedProvider({ replies }) }), retriever: poolRetriever(passages) });
    const plainCall = plain.trace.find((e) => e.kind === 'llm');
    expect(plainCall?.data).not.toHaveProperty('messages');
    expect(plainCall?.data).not.toHaveProperty('text');

    const shown = await loop.run(question, { model: createModel({ provider: createScriptedProvider({ replies }) }), retriever: poolRetriever(passages), traceMessages: true });
    const calls = shown.trace.filter((e) => e.kind === 'llm');
    expect(calls).toHaveLength(2);
    const [firstCall] = calls;
    const messages = firstCall?.data['messages'] as Array<{ role: string; content: string }>;
    expect(messages[0]?.role).toBe('user');
    expect(messages[0]?.content.startsWith(question.text)).toBe(true);
    expect(firstCall?.data['text']).toBe(reply('Shirley Temple', false));
    expect(firstCall?.data['output']).toEqual({ answer: 'Shirley Temple', done: false });
  });

  it('ends a run that exceeds max model calls with a labelled partial result holding the latest answer', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('Shirley Temple', false)] }, repeatLast: true });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), budget: { maxLlmCalls: 3 } });
    expect(result.status).toBe('partial');
    expect(result.stopReason).toBe('budget:maxLlmCalls');
    expect(result.answer).toBe('Shirley Temple');
    expect(result.usage.llmCalls).toBe(3);
    expect(result.trace.at(-1)).toMatchObject({ kind: 'decision', data: { decision: 'STOP', reason: 'budget:maxLlmCalls' } });
  });

  it('stops at the hop and token limits too', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('x', false)] }, repeatLast: true, usage: { promptTokens: 40, completionTokens: 2 } });
    const model = createModel({ provider });
    const hops = await loop.run(question, { model, retriever: poolRetriever(passages), budget: { maxHops: 2 } });
    expect(hops).toMatchObject({ status: 'partial', stopReason: 'budget:maxHops' });
    expect(hops.usage.retrievalCalls).toBe(2);
    const tokens = await loop.run(question, { model, retriever: poolRetriever(passages), budget: { maxTokens: 100 } });
    expect(tokens).toMatchObject({ status: 'partial', stopReason: 'budget:maxTokens' });
    expect(tokens.usage.llmCalls).toBe(3);
  });

  it('stops at the deadline, aborting the call in flight', async () => {
    const result = await loop.run(question, { model: createModel({ provider: firstThenWait(reply('x', false)) }), retriever: poolRetriever(passages), budget: { timeoutMs: 100 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:deadline', answer: 'x' });
  });

  it('reports a caller abort as an error result, keeping the trace so far', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('x', false)] }, repeatLast: true, latencyMs: 20 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', stopReason: 'aborted', error: { code: 'ABORTED' } });
    expect(result.trace.length).toBeGreaterThan(0);
  });

  it('keeps the raw model text in the trace and the result when output breaks its schema', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: ['The answer is Chief of Protocol.', '{"answer": 3}'] } });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('MODEL_OUTPUT');
    expect(result.error?.raw).toEqual(['The answer is Chief of Protocol.', '{"answer": 3}']);
    const errorEvent = result.trace.find((e) => e.kind === 'error');
    expect(errorEvent).toMatchObject({ node: 'reason', data: { role: 'reasoner', raw: ['The answer is Chief of Protocol.', '{"answer": 3}'] } });
  });

  it('keeps the reply a repair round mended in the llm trace event', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: ['The answer is Chief of Protocol.', reply('Chief of Protocol', true)] } });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) });
    expect(result.status).toBe('ok');
    const llm = result.trace.find((e) => e.kind === 'llm');
    expect(llm).toMatchObject({ node: 'reason', data: { attempts: 2, repaired: { raw: 'The answer is Chief of Protocol.', issues: 'the reply contains no JSON object' } } });
  });

  it('keeps the reply that broke the schema, and counts it, when the repair round then fails at the provider', async () => {
    const provider = createScriptedProvider({
      replies: {
        reasoner: [
          'The answer is Chief of Protocol.',
          () => {
            throw new ProviderError('scripted: 500 Internal Server Error', { provider: 'scripted', status: 500, attempts: 3, retryable: true });
          },
        ],
      },
      usage: { promptTokens: 40, completionTokens: 7 },
    });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) });
    expect(result.status).toBe('error');
    // Still the provider's failure (a re-run may pass), with the first reply kept beside it.
    expect(result.error).toMatchObject({ code: 'PROVIDER', status: 500, raw: ['The answer is Chief of Protocol.'] });
    expect(result.usage).toMatchObject({ llmCalls: 1, promptTokens: 40, completionTokens: 7 });
    const errorEvent = result.trace.find((e) => e.kind === 'error');
    expect(errorEvent).toMatchObject({ node: 'reason', data: { code: 'PROVIDER', role: 'reasoner', raw: ['The answer is Chief of Protocol.'], issues: 'the reply contains no JSON object' } });
  });
});

describe('runWorkflow accounting and tracing (review fixes)', () => {
  const fanOut = defineWorkflow({
    id: 'fan-out',
    title: 'five calls at once',
    paper: 'test',
    chart: () => chart,
    async execute(q, ctx) {
      const outputs = await ctx.node('reason', () =>
        Promise.all(Array.from({ length: 5 }, () => ctx.model.call({ prompt: stepPrompt, vars: { question: q.text, context: '' } }))),
      );
      return { answer: outputs[0]!.output.answer };
    },
  });

  it('narrows an event to its kind\'s data with isTraceEvent, so a UI reads fields without casts', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('a partial answer', false), reply('Chief of Protocol', true)] } });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) });
    const searched: string[] = [];
    const calls: Array<[string, number]> = [];
    const decisions: string[] = [];
    for (const event of result.trace) {
      if (isTraceEvent(event, 'retrieve')) searched.push(`${event.data.query}:${event.data.hits.map((h) => h.rank).join(',')}`);
      else if (isTraceEvent(event, 'llm')) calls.push([event.data.promptId, event.data.promptTokens + event.data.completionTokens]);
      else if (isTraceEvent(event, 'decision')) decisions.push(event.data.decision);
    }
    expect(searched).toEqual([`${question.text}:1,2,3`, `${question.text} a partial answer:1,2,3`]);
    expect(calls.map(([id]) => id)).toEqual(['test.step', 'test.step']);
    expect(calls.every(([, tokens]) => tokens > 0)).toBe(true);
    expect(decisions).toEqual(['CONTINUE', 'STOP']);
  });

  it('names a parallel branch in its exit as in its enter, so a UI pairs them whatever order they finish in', async () => {
    const branches = defineWorkflow({
      id: 'branches',
      title: 'three searches at once',
      paper: 'test',
      chart: () => chart,
      async execute(q, ctx) {
        const delays = [30, 0, 15];
        await Promise.all(delays.map((ms, branch) => ctx.node('retrieve', async () => new Promise((r) => setTimeout(r, ms)), { branch })));
        return { answer: q.text };
      },
    });
    const result = await branches.run(question, { model: createModel({ provider: createScriptedProvider({ replies: {} }) }), retriever: poolRetriever(passages) });
    expect(result.trace.filter((e) => e.kind === 'exit').map((e) => e.data['branch'])).toEqual([1, 2, 0]);
    expect(result.trace.filter((e) => e.kind === 'enter').map((e) => e.data['branch'])).toEqual([0, 1, 2]);
  });

  it('traces a bug in a node at that node, with its stack, and keeps the stack in the result', async () => {
    const buggy = defineWorkflow({
      id: 'buggy',
      title: 'a node with a bug',
      paper: 'test',
      chart: () => chart,
      async execute(q, ctx) {
        await ctx.node('retrieve', async () => ctx.retriever.search(q.text, { k: 2 }));
        await ctx.node('reason', async () => (undefined as unknown as { answer: string }).answer);
        return { answer: 'never' };
      },
    });
    const result = await buggy.run(question, { model: createModel({ provider: createScriptedProvider({ replies: {} }) }), retriever: poolRetriever(passages) });
    expect(result.error).toMatchObject({ code: 'UNEXPECTED', message: expect.stringContaining("Cannot read properties of undefined (reading 'answer')"), stack: expect.stringContaining('workflow.test.ts') });
    const errors = result.trace.filter((e) => e.kind === 'error');
    expect(errors).toEqual([expect.objectContaining({ node: 'reason', data: expect.objectContaining({ code: 'UNEXPECTED', stack: expect.stringContaining('TypeError') }) })]);
    expect(result.trace.findIndex((e) => e.kind === 'error')).toBe(result.trace.findIndex((e) => e.kind === 'exit' && e.node === 'reason') - 1);
  });

  it('holds parallel calls to maxLlmCalls: each call is counted before it goes out', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('x', true)] }, repeatLast: true, latencyMs: 5 });
    const result = await fanOut.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), budget: { maxLlmCalls: 2 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:maxLlmCalls' });
    expect(provider.requests.length).toBeLessThanOrEqual(2);
  });

  it('counts the tokens of a call whose output broke its schema', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: ['not json', 'still not json'] }, usage: { promptTokens: 100, completionTokens: 10 } });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) });
    expect(result.status).toBe('error');
    expect(result.usage).toMatchObject({ llmCalls: 1, promptTokens: 200, completionTokens: 20 });
  });

  it('puts a provider failure in the trace at the node where it happened, once', async () => {
    const failing = { id: 'down', generate: async () => Promise.reject(new Error('connection refused')) };
    const result = await loop.run(question, { model: createModel({ provider: failing }), retriever: poolRetriever(passages) });
    const errors = result.trace.filter((e) => e.kind === 'error');
    expect(errors).toHaveLength(1);
    // A caller's own provider throwing a plain error: a provider's failure (not a bug with a stack), named.
    expect(errors[0]).toMatchObject({ node: 'reason', data: { code: 'PROVIDER', message: 'provider down: connection refused', role: 'reasoner', retryable: false } });
    expect(result.error).toEqual({ code: 'PROVIDER', message: 'provider down: connection refused', retryable: false });
  });

  it('tells whether a failure of a caller\'s own provider may pass (HTTP status, a dropped connection), and reports its retriever\'s as a failed search', async () => {
    const failWith = async (thrown: object) => {
      const provider = { id: 'mine', generate: async () => Promise.reject(thrown) };
      return (await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages) })).error;
    };
    expect(await failWith(Object.assign(new Error('Service Unavailable'), { status: 503 }))).toMatchObject({ code: 'PROVIDER', status: 503, retryable: true });
    expect(await failWith(Object.assign(new Error('Unauthorized'), { statusCode: 401 }))).toMatchObject({ code: 'PROVIDER', status: 401, retryable: false });
    expect(await failWith(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toMatchObject({ code: 'PROVIDER', retryable: true });
    // A ProviderError of the caller's own keeps its own verdict.
    expect(await failWith(new ProviderError('quota', { provider: 'mine', status: 429, attempts: 3, retryable: false }))).toMatchObject({ code: 'PROVIDER', status: 429, retryable: false });
    const broken: RetrieverPort = { search: async () => Promise.reject(Object.assign(new Error('vector store unreachable'), { code: 'ECONNREFUSED' })) };
    const provider = createScriptedProvider({ replies: { reasoner: [reply('x', true)] } });
    const searched = await loop.run(question, { model: createModel({ provider }), retriever: broken });
    expect(searched.error).toEqual({ code: 'SEARCH', message: 'retriever: vector store unreachable' });
    expect(searched.trace.filter((e) => e.kind === 'error').map((e) => e.data['code'])).toEqual(['SEARCH']);
  });

  it('streams a run through a bus of the caller’s own, consumed with for-await while it runs', async () => {
    const bus = new TraceBus('my-run');
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const event of bus) seen.push(`${event.node}:${event.kind}`);
    })();
    const provider = createScriptedProvider({ replies: { reasoner: [reply('Chief of Protocol', true)] } });
    const result = await loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), trace: bus });
    await consumer;
    expect(result.runId).toBe('my-run');
    expect(seen).toEqual(result.trace.map((e) => `${e.node}:${e.kind}`));
    // A bus serves one run: reused, or given with another runId, the run is refused before it starts, naming why.
    const model = createModel({ provider: createScriptedProvider({ replies: { reasoner: [reply('x', true)] } }) });
    await expect(loop.run(question, { model, retriever: poolRetriever(passages), trace: bus })).rejects.toThrow(/the trace bus given \(run my-run\) is closed: a bus serves one run/);
    await expect(loop.run(question, { model, retriever: poolRetriever(passages), trace: new TraceBus('a'), runId: 'b' })).rejects.toThrow(/runId "b" differs from the run id of the trace bus given \("a"\)/);
  });

  it('refuses a budget that cannot mean what it says, naming the field, before any call', async () => {
    const provider = createScriptedProvider({ replies: { reasoner: [reply('x', true)] } });
    const run = (budget: Record<string, unknown>) => loop.run(question, { model: createModel({ provider }), retriever: poolRetriever(passages), budget });
    await expect(run({ timeoutMs: Number.NaN })).rejects.toThrow('budget.timeoutMs must be a number of milliseconds ≥ 0, got NaN');
    await expect(run({ maxLlmCalls: -1 })).rejects.toThrow('budget.maxLlmCalls must be a whole number ≥ 0, got -1');
    await expect(run({ maxHops: 1.5 })).rejects.toThrow('budget.maxHops must be a whole number ≥ 0, got 1.5');
    await expect(run({ maxTokens: '100' })).rejects.toThrow('budget.maxTokens must be a whole number ≥ 0, got "100"');
    expect(provider.requests).toHaveLength(0);
    expect((await run({ maxHops: 0, timeoutMs: 50_000 })).status).not.toBe('error');
  });

  it('gives the method the query only: a Question passed to run() reaches the body without its gold', async () => {
    let seen: unknown;
    const peek = defineWorkflow({
      id: 'peek',
      title: 'peek',
      paper: 'test',
      chart: () => chart,
      async execute(q, ctx) {
        seen = { argument: q, context: ctx.query };
        return { answer: 'x' };
      },
    });
    const withGold = { ...question, answer: 'Chief of Protocol', aliases: ['chief of protocol'], supportingIds: ['a', 'b'], metadata: { dataset: 'hotpotqa-dev' } };
    await peek.run(withGold, { model: createModel({ provider: createScriptedProvider({ replies: {} }) }), retriever: poolRetriever(passages) });
    const expected = { id: question.id, text: question.text, metadata: { dataset: 'hotpotqa-dev' } };
    expect(seen).toEqual({ argument: expected, context: expected });
  });

  it('emits a transition event per edge taken, at its source node, with the guard that chose it', async () => {
    const edges = defineWorkflow({
      id: 'edges',
      title: 'edges',
      paper: 'test',
      chart: () => chart,
      async execute(_q, ctx) {
        ctx.transition({ from: 'retrieve', to: 'reason' });
        ctx.transition({ from: 'reason', to: 'retrieve', guard: 'done', label: 'CONTINUE' });
        return { answer: 'x' };
      },
    });
    const result = await edges.run(question, { model: createModel({ provider: createScriptedProvider({ replies: {} }) }), retriever: poolRetriever(passages) });
    expect(result.trace.map(({ node, kind, data }) => ({ node, kind, data }))).toEqual([
      { node: 'retrieve', kind: 'transition', data: { from: 'retrieve', to: 'reason' } },
      { node: 'reason', kind: 'transition', data: { from: 'reason', to: 'retrieve', guard: 'done', label: 'CONTINUE' } },
    ]);
  });
});

describe('routeChoice: the router\'s choice rule', () => {
  const cheap = { workflow: 'cheap', quality: 0.4, tokens: 500 };
  const dear = { workflow: 'dear', quality: 0.6, tokens: 4500 };
  it('picks the highest quality − λ·tokens/1000, so a steeper λ moves the choice to the cheaper candidate', () => {
    expect(routeValue(dear, 0.05)).toBeCloseTo(0.375, 12);
    expect(routeChoice([cheap, dear], 0)).toBe('dear');
    // 0.6 − 4.5λ = 0.4 − 0.5λ at λ = 0.05: below it dear, above it cheap, at it a tie.
    expect(routeChoice([cheap, dear], 0.04)).toBe('dear');
    expect(routeChoice([cheap, dear], 0.06)).toBe('cheap');
  });
  it('breaks a tie to the earlier candidate, whichever order they come in', () => {
    const a = { workflow: 'a', quality: 0.5, tokens: 1000 };
    const b = { workflow: 'b', quality: 0.5, tokens: 1000 };
    expect(routeChoice([a, b], 0.1)).toBe('a');
    expect(routeChoice([b, a], 0.1)).toBe('b');
  });
  it('never picks a prediction whose value is not a number, and picks nothing from none', () => {
    const broken = { workflow: 'broken', quality: Number.NaN, tokens: 10 };
    expect(routeChoice([broken, cheap], 0)).toBe('cheap');
    expect(routeChoice([cheap, { workflow: 'endless', quality: 0.9, tokens: Number.POSITIVE_INFINITY }], 0.01)).toBe('cheap');
    expect(routeChoice([broken], 0)).toBeUndefined();
    expect(routeChoice([], 0)).toBeUndefined();
  });
});
