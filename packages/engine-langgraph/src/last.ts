import { Annotation, type BaseChannel, type OverwriteValue } from '@langchain/langgraph';
import { MultihopError } from '@multihop/core';

/**
 * A state channel that keeps the latest value written to it (a node's update replaces it),
 * starting from `initial()`; a fresh initial value per run, so runs never share an array.
 *
 * `initial()` must not return `undefined`: LangGraph reads such a channel as empty, and reading
 * an empty channel throws and catches an error, on every superstep and for every node's input.
 * Write "nothing yet" as `null`.
 */
export function last<T>(initial: () => T): BaseChannel<T, T | OverwriteValue<T>> {
  if (initial() === undefined) throw new MultihopError('LANGGRAPH_STATE', 'last(initial): initial() returned undefined; use null for "nothing yet"');
  return Annotation<T>({ reducer: (_previous: T, next: T) => next, default: initial });
}
