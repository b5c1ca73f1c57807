import { Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { Send } from '@langchain/langgraph';
import { MultihopError } from '@multihop/core';
import { runtimeOf, type GraphRuntime } from './runtimeOf';

/** A conditional edge's router: returns the key of the branch to take. Its function name is the chart's guard. */
export type Router<State, Key extends string, Extras extends object> = (state: State, runtime: GraphRuntime<Extras>) => Key | Promise<Key>;

/** A fan-out router: one `Send` per parallel branch. Its function name is the chart's guard. */
export type FanOutRouter<State, Extras extends object> = (state: State, runtime: GraphRuntime<Extras>) => Send[] | Promise<Send[]>;

type Routing = { kind: 'route'; paths: Readonly<Record<string, string>> } | { kind: 'fanOut'; targets: readonly string[] };

/**
 * A router as LangGraph runs it (the `path` of a conditional edge): calls the method's router
 * and reports the edge it chose (`guard` = the router's name, `label` = the branch key) or,
 * for a fan-out, one edge per `Send`. A Runnable of our own for the same reason as TracedNode.
 */
export class NamedRouter<State, Extras extends object> extends Runnable<State, string | Send[]> {
  lc_namespace = ['multihop', 'engine-langgraph'];

  constructor(
    readonly from: string,
    readonly guard: string,
    private readonly router: Router<State, string, Extras> | FanOutRouter<State, Extras>,
    private readonly routing: Routing,
  ) {
    super();
    this.name = guard;
  }

  override async invoke(state: State, config?: RunnableConfig): Promise<string | Send[]> {
    const runtime = runtimeOf<Extras>(config);
    const chosen = await this.router(state, runtime);
    if (this.routing.kind === 'fanOut') {
      const { targets } = this.routing;
      if (!Array.isArray(chosen) || chosen.some((s) => !(s instanceof Send) || !targets.includes(s.node))) {
        throw new MultihopError('LANGGRAPH_ROUTE', `fan-out router ${this.guard} must return Send packets to ${targets.join(', ')}`);
      }
      for (const send of chosen) runtime.ctx.transition({ from: this.from, to: send.node, guard: this.guard });
      return chosen;
    }
    const to = typeof chosen === 'string' && Object.hasOwn(this.routing.paths, chosen) ? this.routing.paths[chosen] : undefined;
    if (to === undefined) {
      throw new MultihopError('LANGGRAPH_ROUTE', `router ${this.guard} returned ${JSON.stringify(chosen)}, not one of ${Object.keys(this.routing.paths).join(', ')}`);
    }
    runtime.ctx.transition({ from: this.from, to, guard: this.guard, label: chosen as string });
    return chosen as string;
  }
}
