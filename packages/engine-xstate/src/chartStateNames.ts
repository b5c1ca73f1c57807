import { chartFromXState } from '@multihop/core';
import type { AnyStateMachine, AnyStateNode } from 'xstate';

const cache = new WeakMap<AnyStateMachine, ReadonlyMap<string, string>>();

/**
 * The chart node id of every state of `machine`, keyed by the XState state node id
 * (`opera.retrieve` → `retrieve`). Read off core's own chart of the machine rather than
 * re-derived, so a trace names exactly the nodes `chartFromXState` draws: a state keeps its
 * bare key unless another state took it first, then it is named by its dotted path.
 */
export function chartStateNames(machine: AnyStateMachine): ReadonlyMap<string, string> {
  const cached = cache.get(machine);
  if (cached) return cached;
  const ids = new Set(chartFromXState(machine, { id: machine.id }).nodes.map((n) => n.id));
  const names = new Map<string, string>();
  const visit = (node: AnyStateNode): void => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      const dotted = child.path.join('.');
      names.set(child.id, child.path.length > 1 && ids.has(dotted) ? dotted : child.key);
      visit(child);
    }
  };
  visit(machine.root);
  cache.set(machine, names);
  return names;
}
