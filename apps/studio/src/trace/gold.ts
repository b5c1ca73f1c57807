import type { StudioGold } from '../api/client';

/** Passage ids read `Title#hash`: the title part. */
const titleOf = (id: string): string => {
  const at = id.lastIndexOf('#');
  return at > 0 ? id.slice(0, at) : id;
};

/** Whether a retrieved hit is a gold supporting passage: its id is gold, or its title is a gold passage's title. */
export function goldMatcher(gold: StudioGold | undefined): (hit: { id?: string; title?: string }) => boolean {
  if (!gold || gold.supportingIds.length === 0) return () => false;
  const ids = new Set(gold.supportingIds);
  const titles = new Set(gold.supportingIds.map((id) => titleOf(id).toLowerCase()));
  return (hit) => (hit.id !== undefined && ids.has(hit.id)) || (hit.title !== undefined && titles.has(hit.title.toLowerCase())) || (hit.id !== undefined && titles.has(titleOf(hit.id).toLowerCase()));
}
