import { chartFromXState } from '@multihop/core';
import { createActor, setup, toPromise } from 'xstate';
import { promiseActors } from './promiseActors';

describe('promiseActors', () => {
  const actors = promiseActors<{ index: ReadonlyMap<string, string> }>()({
    lookup: async (input: { entity: string }, { index }) => index.get(input.entity) ?? 'unknown',
  });

  it("gives each bound body its input and the run's runtime", async () => {
    const bound = actors.bind({ index: new Map([['Kiss and Tell', 'Shirley Temple']]) });
    await expect(toPromise(createActor(bound.lookup, { input: { entity: 'Kiss and Tell' } }).start())).resolves.toBe('Shirley Temple');
    expect(actors.names).toEqual(['lookup']);
  });

  it("aborts the body's signal when its actor is stopped", async () => {
    const seen: AbortSignal[] = [];
    const spy = promiseActors<null>()({
      hold: async (_input: undefined, _runtime, signal) => {
        seen.push(signal);
        return new Promise<never>(() => undefined);
      },
    });
    const actor = createActor(spy.bind(null).hold).start();
    expect(seen[0]?.aborted).toBe(false);
    actor.stop();
    expect(seen[0]?.aborted).toBe(true);
  });

  it('types a machine without a runtime: it charts, and an invoked stand-in fails with XSTATE_RUNTIME', async () => {
    const machine = setup({ actors: actors.logic }).createMachine({
      id: 'lookupOnly',
      initial: 'lookup',
      states: {
        lookup: { invoke: { src: 'lookup', input: { entity: 'Kiss and Tell' }, onDone: 'done' } },
        done: { type: 'final' },
      },
    });
    expect(chartFromXState(machine, { id: 'lookupOnly' }).edges).toContainEqual({ from: 'lookup', to: 'done', label: 'done: lookup', kind: 'always' });
    await expect(toPromise(createActor(machine).start())).rejects.toMatchObject({ code: 'XSTATE_RUNTIME', message: expect.stringContaining('"lookup"') });

    const provided = machine.provide({ actors: actors.bind({ index: new Map() }) });
    await expect(toPromise(createActor(provided).start())).resolves.toBeUndefined();
  });
});
