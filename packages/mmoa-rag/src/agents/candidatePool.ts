import type { SearchHit } from '@multihop/core';
import type { CandidateDocument } from '../prompts';

/**
 * How the authors share K candidates among the searched sub-questions (trainer_qr_s_g.py:
 * 10 → [10], [5, 5], [4, 3, 3], [3, 3, 2, 2]): an even split, the remainder to the first ones.
 */
export function candidateQuota(candidates: number, searches: number): number[] {
  const base = Math.floor(candidates / searches);
  const extra = candidates % searches;
  return Array.from({ length: searches }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * The Selector's candidates: each sub-question's quota from its own ranking, in sub-question
 * order. A passage another sub-question already contributed is skipped and the next one of the
 * ranking taken, and what is still short of K
 * is filled from the rankings in order (the authors' pool may hold a passage twice; numbering one passage as two
 * documents would make a repeated ID indistinguishable from a correct one).
 */
export function buildCandidatePool(rankings: ReadonlyArray<readonly SearchHit[]>, candidates: number): CandidateDocument[] {
  const quota = candidateQuota(candidates, Math.max(1, rankings.length));
  const pool: CandidateDocument[] = [];
  const seen = new Set<string>();
  rankings.forEach((hits, i) => {
    let taken = 0;
    for (const hit of hits) {
      if (taken >= (quota[i] ?? 0)) break;
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      pool.push({ id: hit.id, title: hit.title, text: hit.text });
      taken += 1;
    }
  });
  // Skipped repeats leave room: fill it from the rankings in order, so the pool holds K documents whenever the searches found that many.
  for (const hits of rankings) {
    for (const hit of hits) {
      if (pool.length >= candidates) return pool;
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      pool.push({ id: hit.id, title: hit.title, text: hit.text });
    }
  }
  return pool;
}
