import { chartFromXState, type TransitionData } from '@multihop/core';
import { and, assign, createActor, not, setup, type AnyStateMachine } from 'xstate';
import { walkProblems } from '../test/hopLoop';
import { TransitionTracer } from './TransitionTracer';

/** A real actor of `machine`, traced the way runMachine traces it. */
function traced(machine: AnyStateMachine, input?: unknown) {
  const edges: TransitionData[] = [];
  const tracer = new TransitionTracer(machine, (edge) => edges.push(edge));
  const running = machine.provide({ guards: tracer.wrapGuards(machine.implementations.guards as Record<string, unknown>) } as never) as AnyStateMachine;
  tracer.start();
  const actor = createActor(running, { input, inspect: tracer.inspect }).start();
  const walk = () => walkProblems(chartFromXState(machine, { id: machine.id }), edges.map((data) => ({ node: data.from, kind: 'transition' as const, data: { ...data } })));
  return { actor, edges, tracer, walk };
}

describe('TransitionTracer', () => {
  // Three branches into one state: only the recorded guard outcome tells them apart.
  const triage = setup({
    types: { input: {} as { hops: number; confident: boolean }, context: {} as { hops: number; confident: boolean } },
    guards: {
      confident: ({ context }) => context.confident,
      outOfHops: ({ context }) => context.hops >= 3,
    },
  }).createMachine({
    id: 'triage',
    initial: 'judge',
    context: ({ input }) => input,
    states: {
      judge: { always: [{ guard: 'confident', target: 'answer' }, { guard: 'outOfHops', target: 'answer' }, { target: 'answer' }] },
      answer: { type: 'final' },
    },
  });

  it('names the guard that let a transition through when other branches lead to the same state', () => {
    const branches = [
      { hops: 1, confident: true },
      { hops: 3, confident: false },
      { hops: 1, confident: false },
    ].map((input) => traced(triage, input).edges.filter((e) => e.from === 'judge'));
    expect(branches).toEqual([
      [{ from: 'judge', to: 'answer', guard: 'confident', label: 'always' }],
      [{ from: 'judge', to: 'answer', guard: 'outOfHops', label: 'always' }],
      [{ from: 'judge', to: 'answer', label: 'else' }],
    ]);
  });

  const voting = setup({
    types: { context: {} as { yes: number }, events: {} as { type: 'vote.yes' } | { type: 'vote.no' } },
    guards: { quorum: ({ context }, params: { votes: number }) => context.yes + 1 >= params.votes },
  }).createMachine({
    id: 'voting',
    initial: 'waiting',
    context: { yes: 0 },
    states: {
      waiting: {
        on: {
          'vote.yes': [
            { guard: { type: 'quorum', params: { votes: 2 } }, target: 'approved' },
            { target: 'waiting', reenter: true, actions: assign(({ context }) => ({ yes: context.yes + 1 })) },
          ],
          'vote.*': 'rejected',
        },
      },
      approved: { type: 'final' },
      rejected: { type: 'final' },
    },
  });

  it('follows events sent to the machine: parameterised guards, fallbacks and wildcard descriptors', () => {
    const approved = traced(voting);
    approved.actor.send({ type: 'vote.yes' });
    approved.actor.send({ type: 'vote.yes' });
    expect(approved.edges).toEqual([
      { from: '__start__', to: 'waiting' },
      { from: 'waiting', to: 'waiting', label: 'vote.yes' },
      { from: 'waiting', to: 'approved', guard: 'quorum', label: 'vote.yes' },
    ]);
    expect(approved.walk()).toEqual([]);

    const rejected = traced(voting);
    rejected.actor.send({ type: 'vote.no' });
    expect(rejected.edges.at(-1)).toEqual({ from: 'waiting', to: 'rejected', label: 'vote.*' });
    expect(rejected.walk()).toEqual([]);
  });

  it("keeps the chart's names for nested states and walks a compound state's initial edges", () => {
    const review = setup({ types: { events: {} as { type: 'next' } } }).createMachine({
      id: 'review',
      initial: 'retrieve',
      states: {
        retrieve: { on: { next: 'check' } },
        check: {
          initial: 'retrieve',
          states: {
            retrieve: { on: { next: 'verified' } },
            verified: { type: 'final' },
          },
          onDone: 'end',
        },
        end: { type: 'final' },
      },
    });
    const run = traced(review);
    run.actor.send({ type: 'next' });
    expect(run.tracer.state).toBe('check.retrieve');
    run.actor.send({ type: 'next' });
    expect(run.edges).toEqual([
      { from: '__start__', to: 'retrieve' },
      { from: 'retrieve', to: 'check', label: 'next' },
      { from: 'check', to: 'check.retrieve', label: 'initial' },
      { from: 'check.retrieve', to: 'verified', label: 'next' },
      { from: 'check', to: 'end', label: 'xstate.done.state.review.check' },
    ]);
    expect(run.walk()).toEqual([]);
  });

  it('recognises transitions behind higher-order guards by the state the machine reached', () => {
    const gate = setup({
      types: { input: {} as { retrieved: boolean; grounded: boolean }, context: {} as { retrieved: boolean; grounded: boolean } },
      guards: {
        retrieved: ({ context }) => context.retrieved,
        grounded: ({ context }) => context.grounded,
        supported: and(['retrieved', 'grounded']),
      },
    }).createMachine({
      id: 'gate',
      initial: 'check',
      context: ({ input }) => input,
      states: {
        check: { always: [{ guard: 'supported', target: 'answer' }, { guard: not('retrieved'), target: 'retrieve' }, { target: 'abstain' }] },
        answer: { type: 'final' },
        retrieve: { type: 'final' },
        abstain: { type: 'final' },
      },
    });
    const from = (input: { retrieved: boolean; grounded: boolean }) => {
      const run = traced(gate, input);
      expect(run.walk()).toEqual([]);
      return run.edges.filter((e) => e.from === 'check');
    };
    expect(from({ retrieved: true, grounded: true })).toEqual([{ from: 'check', to: 'answer', guard: 'supported', label: 'always' }]);
    // `not('retrieved')` is an inline guard with no name: the chart draws that branch unguarded, as an `else`, and so does the trace.
    expect(from({ retrieved: false, grounded: false })).toEqual([{ from: 'check', to: 'retrieve', label: 'else' }]);
    expect(from({ retrieved: true, grounded: false })).toEqual([{ from: 'check', to: 'abstain', label: 'else' }]);
  });
});
