import { Annotation, type BaseChannel, type OverwriteValue } from '@langchain/langgraph';

/**
 * A state channel that accumulates: every update's items are appended, in the order the
 * updates are applied. Parallel branches (LangGraph `Send`) can write to it in the same step,
 * where `last` would keep only one branch's value.
 */
export function append<T>(): BaseChannel<T[], T[] | OverwriteValue<T[]>> {
  return Annotation<T[]>({ reducer: (items: T[], added: T[]) => items.concat(added), default: () => [] });
}
