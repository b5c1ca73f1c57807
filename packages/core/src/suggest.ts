/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The names `value` was most likely meant to be, nearest first (ties in the candidates' order):
 * those within a third of its length in edit distance (at least 2), ignoring case. Empty when
 * none is near. What every "did you mean" of the project is built on.
 */
export function nearest(value: string, candidates: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(value.length / 3));
  const v = value.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(v, candidate.toLowerCase()) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance)
    .map((c) => c.candidate);
}

/** ` (did you mean "x"?)` with the nearest one or two names, or '' when nothing is near. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const near = nearest(value, candidates).slice(0, 2);
  return near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)` : '';
}
