import { TraceBus } from './trace';

describe('TraceBus', () => {
  it('numbers events in order and delivers them to listeners live', () => {
    const bus = new TraceBus('run-1');
    const seen: string[] = [];
    const off = bus.on((e) => seen.push(`${e.seq}:${e.node}:${e.kind}`));
    bus.emit('plan', 'enter');
    bus.emit('plan', 'exit');
    off();
    bus.emit('retrieve', 'enter');
    expect(seen).toEqual(['0:plan:enter', '1:plan:exit']);
    expect(bus.events.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(bus.events.every((e) => e.runId === 'run-1')).toBe(true);
  });

  it('can be consumed with for-await, replaying earlier events and ending on close', async () => {
    const bus = new TraceBus('run-2');
    bus.emit('a', 'enter');
    const collected: string[] = [];
    const consumer = (async () => {
      for await (const event of bus) collected.push(event.node);
    })();
    await new Promise((r) => setTimeout(r, 5));
    bus.emit('b', 'enter');
    bus.emit('c', 'decision', { decision: 'STOP' });
    bus.close();
    await consumer;
    expect(collected).toEqual(['a', 'b', 'c']);
    expect(() => bus.emit('d', 'enter')).toThrow(/closed/);
  });

  it('catches an async listener that rejects (no unhandled rejection) and warns once, the run going on', async () => {
    const bus = new TraceBus('run-async');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      bus.on(async () => {
        throw new Error('UI socket closed');
      });
      bus.emit('a', 'enter');
      bus.emit('a', 'exit');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      // Once per bus, though it failed on both events.
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/trace listener of run run-async failed .*UI socket closed/)]);
      expect(bus.events).toHaveLength(2);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      warn.mockRestore();
    }
  });

  it('keeps running when a listener throws', () => {
    const bus = new TraceBus('run-3');
    bus.on(() => {
      throw new Error('observer bug');
    });
    expect(() => bus.emit('a', 'enter')).not.toThrow();
    expect(bus.events).toHaveLength(1);
  });
});
