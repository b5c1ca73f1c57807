import { MultihopError } from '@multihop/core';
import { fromPromise, type PromiseActorLogic } from 'xstate';

/**
 * One invoked step of a method: what the machine passes it (`input`), the run's runtime (the
 * traced RunContext and whatever else the method needs per run), and the actor's own signal,
 * which aborts when the actor is stopped (a pause, an abort).
 */
export type ActorBody<TInput, TOutput, TRuntime> = (input: TInput, runtime: TRuntime, signal: AbortSignal) => Promise<TOutput>;

// `any` in the input position lets each body declare its own input type; the mapped type below
// reads it back, so setup() and provide() see the same typed logic.
export type ActorBodies<TRuntime> = Record<string, ActorBody<any, unknown, TRuntime>>;

/** The XState logic of each body: `fromPromise<Output, Input>`. */
export type PromiseLogicOf<TBodies> = {
  [K in keyof TBodies]: TBodies[K] extends (input: infer I, runtime: any, signal: AbortSignal) => Promise<infer O> ? PromiseActorLogic<O, I> : never;
};

export interface PromiseActors<TRuntime, TBodies extends ActorBodies<TRuntime>> {
  /**
   * For `setup({ actors })`: typed like the real logic, so the machine's `onDone` handlers see
   * each body's output type, but with no runtime behind it. A machine built on these draws its
   * chart and persists, and an actor that is invoked without `bind` fails with `XSTATE_RUNTIME`.
   */
  readonly logic: PromiseLogicOf<TBodies>;
  /** For `machine.provide({ actors })`: the bodies bound to one run's runtime. */
  bind(runtime: TRuntime): PromiseLogicOf<TBodies>;
  /** The actor names, as the machine's `invoke.src` refers to them. */
  readonly names: ReadonlyArray<keyof TBodies & string>;
}

/**
 * Declares a method's invoked actors as plain async functions of `(input, runtime)`, so the
 * machine is defined once with no runtime closed over, and each run supplies its own with
 * `machine.provide({ actors: actors.bind(runtime) })` (runMachine and defineXStateWorkflow do
 * that). Curried so that the runtime type is stated once and each body's input type is inferred:
 *
 *   const actors = promiseActors<{ ctx: RunContext }>()({
 *     retrieve: async (input: { query: string }, { ctx }) => ctx.retriever.search(input.query, { k: 5 }),
 *   });
 */
export function promiseActors<TRuntime>() {
  return <TBodies extends ActorBodies<TRuntime>>(bodies: TBodies): PromiseActors<TRuntime, TBodies> => {
    const names = Object.keys(bodies) as Array<keyof TBodies & string>;
    const build = (make: (name: string, body: ActorBody<unknown, unknown, TRuntime>) => PromiseActorLogic<unknown, unknown>) =>
      Object.fromEntries(names.map((name) => [name, make(name, bodies[name]!)])) as PromiseLogicOf<TBodies>;
    const logic = build((name) =>
      fromPromise<unknown, unknown>(async () => {
        throw new MultihopError('XSTATE_RUNTIME', `actor "${name}" ran without a runtime: supply one with machine.provide({ actors: actors.bind(runtime) })`);
      }),
    );
    return {
      logic,
      names,
      bind: (runtime) => build((_name, body) => fromPromise(({ input, signal }) => body(input, runtime, signal))),
    };
  };
}
