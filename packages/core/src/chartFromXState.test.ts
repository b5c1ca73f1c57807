import { toMermaid, validateChart } from './chart';
import { chartFromXState, type XStateMachineLike, type XStateNodeJSON } from './chartFromXState';

// What XState v5's `machine.toJSON()` gives for a small analyse → rewrite loop (trimmed to
// the fields it always has), and the live root whose `always` transitions toJSON leaves out.
const transition = (eventType: string, target: string, guard?: string) => ({
  target: [`#loop.${target}`],
  ...(guard ? { guard } : {}),
  actions: [],
  source: '#loop',
  reenter: false,
  eventType,
});
const state = (key: string, extra: Partial<XStateNodeJSON> = {}): XStateNodeJSON => ({
  id: `loop.${key}`,
  key,
  type: 'atomic',
  initial: { target: [] },
  states: {},
  transitions: [],
  invoke: [],
  ...extra,
});
const json: XStateNodeJSON = {
  id: 'loop',
  key: 'loop',
  type: 'compound',
  initial: { target: ['#loop.analyze'] },
  states: {
    analyze: state('analyze', {
      invoke: [{ src: 'analysisAnswerAgent', id: 'analyze' }],
      transitions: [transition('xstate.done.actor.analyze', 'judge'), transition('xstate.error.actor.analyze', 'failed')],
    }),
    judge: state('judge'),
    rewrite: state('rewrite', { invoke: [{ src: 'rewriteAgent', id: 'rewrite' }], transitions: [transition('xstate.done.actor.rewrite', 'analyze')] }),
    done: state('done', { type: 'final' }),
    failed: state('failed', { type: 'final' }),
  },
};
const always = [
  { toJSON: () => transition('', 'done', 'sufficient') },
  { toJSON: () => transition('', 'rewrite', 'rewritesLeft') },
  { toJSON: () => transition('', 'done') },
];
const machine: XStateMachineLike = {
  toJSON: () => json,
  root: { states: { analyze: { states: {} }, judge: { always, states: {} }, rewrite: { states: {} }, done: { states: {} }, failed: { states: {} } } },
};

describe('chartFromXState', () => {
  const chart = chartFromXState(machine, { id: 'loop', labels: { judge: 'sufficient?' } });

  it('names every state, with the actors it invokes, and starts at the initial state', () => {
    expect(validateChart(chart)).toEqual([]);
    expect(chart.engine).toBe('xstate');
    expect(chart.nodes).toEqual([
      { id: '__start__', kind: 'start' },
      { id: 'analyze', label: 'analyze · invokes analysisAnswerAgent', kind: 'step' },
      { id: 'judge', label: 'sufficient?', kind: 'choice' },
      { id: 'rewrite', label: 'rewrite · invokes rewriteAgent', kind: 'step' },
      { id: 'done', kind: 'end' },
      { id: 'failed', kind: 'end' },
    ]);
    expect(chart.edges[0]).toEqual({ from: '__start__', to: 'analyze', kind: 'always' });
  });

  it('labels done/error of invoked actors and reads guarded eventless transitions off the live root', () => {
    expect(chart.edges).toEqual(
      expect.arrayContaining([
        { from: 'analyze', to: 'judge', label: 'done: analysisAnswerAgent', kind: 'always' },
        { from: 'analyze', to: 'failed', label: 'error: analysisAnswerAgent', kind: 'always' },
        { from: 'judge', to: 'done', label: 'always', guard: 'sufficient', kind: 'conditional' },
        { from: 'judge', to: 'rewrite', label: 'always', guard: 'rewritesLeft', kind: 'conditional' },
        { from: 'judge', to: 'done', label: 'else', kind: 'conditional' },
        { from: 'rewrite', to: 'analyze', label: 'done: rewriteAgent', kind: 'always' },
      ]),
    );
    expect(chart.guards).toEqual(['sufficient', 'rewritesLeft']);
  });

  it('renders as Mermaid with the guards on the edges', () => {
    const text = toMermaid(chart);
    expect(text).toContain('n2{"sufficient?"}');
    expect(text).toContain('n2 -.->|"always [rewritesLeft]"| n3');
  });

  it('keeps nested states under their parent and tells duplicate keys apart', () => {
    const nested: XStateNodeJSON = {
      ...json,
      states: {
        step: state('step', { type: 'compound', initial: { target: ['#loop.step.work'] }, states: { work: state('step.work', { id: 'loop.step.work', key: 'work' }) } }),
        work: state('work', { transitions: [transition('GO', 'step.work')] }),
      },
      initial: { target: ['#loop.work'] },
    };
    const c = chartFromXState({ toJSON: () => nested, root: { states: {} } }, { id: 'nested' });
    expect(validateChart(c)).toEqual([]);
    expect(c.nodes.map((n) => [n.id, n.parent])).toEqual([['__start__', undefined], ['step', undefined], ['step.work', 'step'], ['work', undefined]]);
    expect(c.edges).toEqual(expect.arrayContaining([{ from: 'work', to: 'step.work', label: 'GO', kind: 'always' }, { from: 'step', to: 'step.work', label: 'initial', kind: 'always' }]));
  });
});
