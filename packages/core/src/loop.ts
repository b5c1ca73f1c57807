/** The stop reason of a loop that made no progress: its next query repeats one, or its retrieval found nothing new. */
export const NO_PROGRESS = 'no-progress';

/** Why a loop step made no progress. */
export type NoProgressKind = 'repeated-query' | 'no-new-passage';

export type LoopProgress =
  | { progress: true; newPassages: number }
  | { progress: false; kind: NoProgressKind; detail: string; newPassages: number };

/**
 * A query in the form repeats are compared in: lower case, punctuation dropped, whitespace
 * collapsed. "Who directed Moonfall?" and "who directed  moonfall" are the same query.
 */
export function normaliseQuery(query: string): string {
  return query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The earlier query that `query` repeats, if any (compared normalised). */
export function repeatedQuery(query: string, earlier: readonly string[]): string | undefined {
  const key = normaliseQuery(query);
  return key ? earlier.find((q) => normaliseQuery(q) === key) : undefined;
}

/**
 * Whether one step of a retrieval loop (PAR²'s chain, OPERA's rewrites, IRCoT, ReAct) made
 * progress. Checked before a step runs, with only `query` and `earlierQueries`, it catches a
 * repeated query; checked after its retrieval, with `retrievedIds` and `seenIds`, it also
 * catches a retrieval that added no passage the loop had not already seen. A loop that gets
 * `progress: false` stops with stopReason `no-progress` ({@link NO_PROGRESS}) and says why in
 * a decision event, so the stop is visible in the trace.
 */
export function loopProgress(input: {
  query: string;
  earlierQueries: readonly string[];
  retrievedIds?: readonly string[];
  seenIds?: Iterable<string>;
}): LoopProgress {
  const seen = new Set(input.seenIds ?? []);
  const fresh = input.retrievedIds ? new Set(input.retrievedIds.filter((id) => !seen.has(id))).size : 0;
  const repeat = repeatedQuery(input.query, input.earlierQueries);
  if (repeat !== undefined) return { progress: false, kind: 'repeated-query', detail: `query "${input.query}" repeats "${repeat}"`, newPassages: fresh };
  if (input.retrievedIds && fresh === 0) {
    return { progress: false, kind: 'no-new-passage', detail: `query "${input.query}" retrieved ${input.retrievedIds.length} passage(s), none new`, newPassages: 0 };
  }
  return { progress: true, newPassages: fresh };
}
