import { chartFromXState, createModel, createScriptedProvider, defineWorkflow, type RunOptions, type RetrieverPort, type TraceEvent } from '@multihop/core';
import { firstThenWait } from '@multihop/testing';
import { createActor, fromPromise, setup, waitFor, type AnyStateMachine } from 'xstate';
import { hopActors, hopLoop, hotpotQuestions, overlapRetriever, reply, transitionsOf, walkProblems } from '../test/hopLoop';
import { runMachine, type MachineRunOptions, type MachineRunResult } from './runMachine';

const [first, ...others] = hotpotQuestions(4);
const { question, passages } = first!;
const chart = chartFromXState(hopLoop, { id: 'hopLoop' });

/** The trace's node events as `node:kind`, a failed exit as `exit!<reason>`, a decision by its name (transitions and calls left out). */
const nodeEvents = (trace: readonly TraceEvent[]): string[] =>
  trace
    .filter((e) => ['enter', 'exit', 'error'].includes(e.kind) || (e.kind === 'decision' && e.data['decision'] === 'STOP'))
    .map((e) => `${e.node}:${e.kind === 'exit' && e.data['failed'] ? `exit!${String(e.data['reason'] ?? '')}` : e.kind === 'decision' ? 'STOP' : e.kind}`);

/** Runs the hop loop through runMachine as a core workflow body, keeping what runMachine resolved. */
async function run(
  options: Partial<MachineRunOptions<typeof hopLoop>> & { maxHops?: number; guards?: Record<string, () => boolean> },
  runOptions: Partial<RunOptions> & Pick<RunOptions, 'model'>,
  q = question,
) {
  let outcome: MachineRunResult<typeof hopLoop> | undefined;
  const { maxHops, guards, ...machineOptions } = options;
  const workflow = defineWorkflow({
    id: 'hopLoop',
    title: 'hop loop',
    paper: 'test',
    chart: () => chart,
    async execute(query, ctx) {
      outcome = await runMachine(hopLoop, ctx, {
        input: { question: query.text, ...(maxHops ? { maxHops } : {}) },
        implementations: { actors: hopActors.bind({ ctx }), ...(guards ? { guards } : {}) } as never,
        ...machineOptions,
      });
      return { answer: outcome.status === 'done' ? outcome.output.answer : outcome.context.answer };
    },
  });
  const result = await workflow.run(q, { retriever: overlapRetriever(passages), ...runOptions });
  return { result, outcome };
}

const scripted = (...replies: string[]) => createModel({ provider: createScriptedProvider({ replies: { reasoner: replies }, repeatLast: true }) });

describe('runMachine', () => {
  it("starts the actor with the run's input and resolves with the machine's output and final context", async () => {
    const { result, outcome } = await run({}, { model: scripted(reply('a partial answer', false), reply(question.answer, true)) });
    expect(result.status).toBe('ok');
    expect(result.answer).toBe(question.answer);
    expect(outcome).toMatchObject({ status: 'done', state: 'done', output: { answer: question.answer, hops: 2 } });
    expect(outcome?.context.query).toBe(`${question.text} a partial answer`);
    const queries = result.trace.filter((e) => e.kind === 'retrieve').map((e) => e.data['query']);
    expect(queries).toEqual([question.text, `${question.text} a partial answer`]);
    expect(result.evidenceIds.every((id) => passages.some((p) => p.id === id))).toBe(true);
  });

  it('names every transition it takes as a chart edge, at its source node, with the guard that let it through', async () => {
    const { result } = await run({}, { model: scripted(reply('a partial answer', false), reply(question.answer, true)) });
    expect(transitionsOf(result.trace)).toEqual([
      { from: '__start__', to: 'retrieve' },
      { from: 'retrieve', to: 'reason', label: 'done: search' },
      { from: 'reason', to: 'decide', label: 'done: reasoner' },
      { from: 'decide', to: 'retrieve', guard: 'hopsLeft', label: 'always' },
      { from: 'retrieve', to: 'reason', label: 'done: search' },
      { from: 'reason', to: 'decide', label: 'done: reasoner' },
      { from: 'decide', to: 'done', guard: 'answered', label: 'always' },
    ]);
    expect(walkProblems(chart, result.trace)).toEqual([]);

    // Out of hops with no final answer: the choice's unguarded fallback, which the chart calls `else`.
    const exhausted = await run({ maxHops: 2 }, { model: scripted(reply('not sure', false)) });
    expect(transitionsOf(exhausted.result.trace).filter((t) => t.from === 'decide')).toEqual([
      { from: 'decide', to: 'retrieve', guard: 'hopsLeft', label: 'always' },
      { from: 'decide', to: 'done', label: 'else' },
    ]);
    expect(walkProblems(chart, exhausted.result.trace)).toEqual([]);
  });

  it("stops the actor when the run's signal aborts, and the run ends with the abort's reason", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider({ replies: { reasoner: [reply('a partial answer', false)] }, repeatLast: true, latencyMs: 40 });
    const { result } = await run(
      {},
      {
        model: createModel({ provider }),
        signal: controller.signal,
        onEvent: (e) => {
          if (e.kind === 'enter' && e.node === 'reason') setTimeout(() => controller.abort(new Error('the user closed the tab')), 10);
        },
      },
    );
    expect(result).toMatchObject({ status: 'error', stopReason: 'aborted', error: { code: 'ABORTED' } });
    expect(result.error?.message).toContain('the user closed the tab');
    // The actor is stopped: the reply in flight lands nowhere and no second hop starts.
    await new Promise((r) => setTimeout(r, 120));
    expect(provider.requests).toHaveLength(1);
    expect(transitionsOf(result.trace).map((t) => t.to)).toEqual(['retrieve', 'reason']);
    // The node the run gave up on is closed, and the error is traced there, not at the workflow.
    expect(nodeEvents(result.trace)).toEqual(['retrieve:enter', 'retrieve:exit', 'reason:enter', 'reason:error', 'reason:exit!aborted']);
  });

  it('ends a run stopped by its deadline as partial, with the latest answer', async () => {
    const { result } = await run({}, { model: createModel({ provider: firstThenWait(reply('a first guess', false)) }), budget: { timeoutMs: 100 } });
    expect(result).toMatchObject({ status: 'partial', stopReason: 'budget:deadline', answer: 'a first guess' });
    // The second hop's reason node, left waiting, is closed before the STOP, which is traced at it.
    expect(nodeEvents(result.trace).slice(-3)).toEqual(['reason:enter', 'reason:exit!budget:deadline', 'reason:STOP']);
  });

  it('stops a loop with no bound at maxTransitions with a STEP_LIMIT error, where it would spin for good', async () => {
    // The bug: the guard that bounds the loop always lets it go round again.
    const { result } = await run({ guards: { hopsLeft: () => true }, maxTransitions: 40 }, { model: scripted(reply('not sure', false)) });
    expect(result).toMatchObject({ status: 'error', error: { code: 'STEP_LIMIT' } });
    expect(result.error?.message).toMatch(/^machine "\S+" took more than 40 transitions without reaching a final state \(last: \w+\): a loop needs its own bound/);
    expect(transitionsOf(result.trace)).toHaveLength(41);
  });

  it("rethrows the failed actor's own error when the machine ends in a failure state", async () => {
    // The machine catches the error (onError → failed, message in context); without failedStates that is a normal end.
    const caught = await run({}, { model: scripted('not json', 'still not json') });
    expect(caught.outcome).toMatchObject({ status: 'done', state: 'failed' });
    expect(caught.outcome?.context.error).toContain('broke its schema');
    expect(transitionsOf(caught.result.trace).at(-1)).toEqual({ from: 'reason', to: 'failed', label: 'error: reasoner' });

    const malformed = await run({ failedStates: ['failed'] }, { model: scripted('not json', 'still not json') });
    expect(malformed.result).toMatchObject({ status: 'error', error: { code: 'MODEL_OUTPUT', raw: ['not json', 'still not json'] } });

    const budget = await run(
      { failedStates: ['failed'] },
      { model: createModel({ provider: createScriptedProvider({ replies: { reasoner: [reply('a first guess', false)] }, repeatLast: true }) }), budget: { maxLlmCalls: 1 } },
    );
    expect(budget.result).toMatchObject({ status: 'partial', stopReason: 'budget:maxLlmCalls', answer: 'a first guess' });

    // A budget stop is the run's to label even when the machine ends in a final state no one named
    // in failedStates: it is partial, not a success with an empty answer.
    const unnamed = await run(
      {},
      { model: createModel({ provider: createScriptedProvider({ replies: { reasoner: [reply('a first guess', false)] }, repeatLast: true }) }), budget: { maxLlmCalls: 1 } },
    );
    expect(unnamed.result).toMatchObject({ status: 'partial', stopReason: 'budget:maxLlmCalls', answer: 'a first guess' });
  });

  it('lets an error the machine does not catch reach the run as thrown', async () => {
    const uncaught = setup({ types: { input: {} as { question: string }, context: {} as { question: string } }, actors: hopActors.logic }).createMachine({
      id: 'uncaught',
      initial: 'retrieve',
      context: ({ input }) => ({ question: input.question }),
      states: {
        retrieve: { invoke: { src: 'search', input: ({ context }) => ({ query: context.question, hop: 1 }), onDone: 'end' } },
        end: { type: 'final' },
      },
    });
    const broken: RetrieverPort = {
      search: async () => {
        throw new RangeError('the index has no table "hotpotqa-dev"');
      },
    };
    let thrown: unknown;
    const workflow = defineWorkflow({
      id: 'uncaught',
      title: 'uncaught',
      paper: 'test',
      chart: () => chartFromXState(uncaught, { id: 'uncaught' }),
      async execute(query, ctx) {
        try {
          await runMachine(uncaught, ctx, { input: { question: query.text }, implementations: { actors: hopActors.bind({ ctx }) } });
        } catch (error) {
          thrown = error;
          throw error;
        }
        return { answer: '' };
      },
    });
    const result = await workflow.run(question, { model: scripted(), retriever: broken });
    // The retriever's own error, as the run reports a failed search (SEARCH), the original its cause.
    expect(thrown).toMatchObject({ code: 'SEARCH', cause: expect.any(RangeError) });
    expect(result).toMatchObject({ status: 'error', error: { code: 'SEARCH', message: 'retriever: the index has no table "hotpotqa-dev"' } });
  });

  it('pauses where the predicate holds, with a JSON snapshot from which a new actor finishes with the same answer', async () => {
    const uninterrupted = await run({}, { model: scripted(reply('a partial answer', false), reply(question.answer, true)) });

    const paused = await run({ pauseWhen: (state, context) => state === 'retrieve' && context.hops === 1 }, { model: scripted(reply('a partial answer', false)) });
    expect(paused.outcome?.status).toBe('paused');
    if (paused.outcome?.status !== 'paused') return;
    const snapshot = JSON.parse(JSON.stringify(paused.outcome.snapshot)) as { value: string; context: { hops: number; query: string } };
    expect(snapshot).toEqual(paused.outcome.snapshot);
    expect(snapshot.value).toBe('retrieve');
    expect(snapshot.context).toMatchObject({ hops: 1, query: `${question.text} a partial answer` });
    expect(paused.result.trace.filter((e) => e.kind === 'decision').map((e) => [e.node, e.data['decision']])).toEqual([['retrieve', 'paused']]);

    const resumed = await run({ snapshot }, { model: scripted(reply(question.answer, true)) });
    expect(resumed.outcome).toMatchObject({ status: 'done', output: uninterrupted.outcome?.status === 'done' ? uninterrupted.outcome.output : {} });
    expect(resumed.result.answer).toBe(uninterrupted.result.answer);
    // A new actor from the persisted state: no start edge, the first move leaves where the old one stopped.
    expect(transitionsOf(resumed.result.trace)[0]).toEqual({ from: 'retrieve', to: 'reason', label: 'done: search' });
    expect(walkProblems(chart, resumed.result.trace)).toEqual([]);
    // A snapshot of a state the machine no longer has (renamed since) is refused naming it, not a TypeError inside XState.
    const stale = await run({ snapshot: { ...snapshot, value: 'lookup' } }, { model: scripted(reply(question.answer, true)) });
    expect(stale.result).toMatchObject({ status: 'error', error: { code: 'CHECKPOINT' } });
    expect(stale.result.error?.message).toContain('the snapshot to resume from is in state "lookup", which machine "hopLoop" does not have');
  });

  it('serves concurrent runs from one machine, each actor with its own runtime', async () => {
    const runs = await Promise.all(
      [first!, ...others].map(async (item) => {
        const retriever = overlapRetriever(item.passages);
        const answered = await run({}, { model: scripted(reply(item.question.answer, true)), retriever }, item.question);
        return { item, result: answered.result };
      }),
    );
    for (const { item, result } of runs) {
      expect(result.answer).toBe(item.question.answer);
      expect(result.evidenceIds.length).toBeGreaterThan(0);
      expect(result.evidenceIds.every((id) => item.passages.some((p) => p.id === id))).toBe(true);
    }
    // The shared definition never ran: its actors are still the runtime-free stand-ins.
    const bare = await waitFor(createActor(hopLoop, { input: { question: question.text } }).start(), (s) => s.status === 'done');
    expect(bare.value).toBe('failed');
    expect(bare.context.error).toContain('ran without a runtime');
  });

  it('fails a run whose machine stops in a state that is not final and waits on nothing, naming the state, where it would hang; a delayed transition is waited for', async () => {
    const build = (review: Record<string, unknown>) =>
      setup({ actors: { work: fromPromise(async () => 'drafted') } }).createMachine({
        id: 'deadEnd',
        initial: 'draft',
        states: { draft: { invoke: { src: 'work', onDone: 'review' } }, review, done: { type: 'final' } },
      } as never);
    const runIt = (machine: ReturnType<typeof build>) =>
      defineWorkflow({
        id: 'deadEnd',
        title: 'dead end',
        paper: 'test',
        chart: () => chartFromXState(machine, { id: 'deadEnd' }),
        async execute(_query, ctx) {
          const outcome = await runMachine(machine as unknown as AnyStateMachine, ctx, { input: {} });
          return { answer: String(outcome.state) };
        },
      }).run(question, { model: scripted(reply('x', true)), retriever: overlapRetriever(passages) });
    const stuck = await runIt(build({}));
    expect(stuck).toMatchObject({ status: 'error', error: { code: 'XSTATE_STUCK' } });
    expect(stuck.error?.message).toContain('stopped in state "review", which is not final and waits on nothing');
    const waited = await runIt(build({ after: { 20: 'done' } }));
    expect(waited).toMatchObject({ status: 'ok', answer: 'done' });
  });
});
