import type { ModelPort } from '@multihop/core';
import { QUERY_TYPES, type ExperienceEntry, type QueryProfile, type QueryType } from '../experience';
import type { HeraReflection } from '../prompts';
import { heraLibraryPrompt, type HeraLibraryOps } from './prompts';

export type LibraryOperation = 'ADD' | 'MERGE' | 'PRUNE' | 'KEEP';

/** What one insight did to the library (a line of the loop's log and of the tests). */
export interface LibraryChange {
  operation: LibraryOperation;
  insight: string;
  /** Entries added, merged into, or removed. */
  entries: string[];
  rationale: string;
}

export interface LibraryUpdateOptions {
  /** A conflicting entry is pruned only when its utility is at most this (default 0: it never led to a success). */
  pruneUtility: number;
  /** Most entries the library keeps; beyond it the lowest-utility, least-used, oldest go. */
  maxEntries: number;
  /** Ids of new entries: `x<n>` from this counter (kept in the checkpoint so a resumed run names them alike). */
  nextId: number;
}

const typeOf = (t: string, fallback: QueryType): QueryType => ((QUERY_TYPES as readonly string[]).includes(t) ? (t as QueryType) : fallback);

/**
 * Algorithm 3 lines 2–14, applying the operations the library prompt chose (a model's choice is
 * checked, not trusted): ADD inserts (c, z, u = 0); MERGE rewrites the first target with the
 * merged text (utility the targets' highest, uses their sum) and drops the other targets; PRUNE
 * removes the conflicting targets whose utility is at most `pruneUtility` and puts the new
 * insight in their place (FILTERLOWUTILITY), and is a KEEP when every conflicting entry has
 * proven itself; KEEP changes nothing. A MERGE or PRUNE naming no existing entry is an ADD.
 * Returns the new library (the input is not changed) and what each insight did.
 */
export function applyLibraryOperations(
  library: readonly ExperienceEntry[],
  reflection: HeraReflection,
  profile: Pick<QueryProfile, 'query_type' | 'complexity' | 'profile'>,
  ops: HeraLibraryOps,
  options: LibraryUpdateOptions,
): { library: ExperienceEntry[]; changes: LibraryChange[]; nextId: number } {
  let entries = library.map((e) => ({ ...e, profile: { ...e.profile } }));
  let nextId = options.nextId;
  const changes: LibraryChange[] = [];
  const add = (insight: string, rationale: string, operation: LibraryOperation = 'ADD', removed: string[] = []) => {
    const source = reflection.insights.find((i) => i.insight === insight);
    const id = `x${nextId++}`;
    entries.push({ id, profile: { query_type: typeOf(source?.query_type ?? '', profile.query_type), complexity: profile.complexity, text: profile.profile }, insight, utility: 0, uses: 0 });
    changes.push({ operation, insight, entries: [id, ...removed], rationale });
  };
  // A model restates a lesson as often as it copies it (a full stop, quotes, another case): an
  // operation is matched to its lesson by the normalised text, else, when it gave one operation per
  // lesson, by position; a lesson no operation matches is kept out, and says so.
  const matched = new Set<number>();
  const opFor = (insight: string, index: number) => {
    let at = ops.operations.findIndex((o, i) => !matched.has(i) && sameLesson(o.new_insight, insight));
    if (at < 0 && ops.operations.length === reflection.insights.length && !matched.has(index)) at = index;
    if (at < 0) return undefined;
    matched.add(at);
    return ops.operations[at];
  };
  for (const [index, insight] of reflection.insights.entries()) {
    const op = opFor(insight.insight, index);
    if (!op || op.operation === 'KEEP') {
      changes.push({ operation: 'KEEP', insight: insight.insight, entries: [], rationale: op?.rationale ?? `no operation matched this lesson (the operations named: ${ops.operations.map((o) => JSON.stringify(o.new_insight)).join(', ') || 'none'})` });
      continue;
    }
    const targets = op.target_entry_ids.filter((id) => entries.some((e) => e.id === id));
    if (op.operation === 'ADD' || targets.length === 0) {
      add(insight.insight, op.operation === 'ADD' ? op.rationale : `${op.operation} named no existing entry: added`);
      continue;
    }
    if (op.operation === 'MERGE') {
      const [first, ...rest] = targets.map((id) => entries.find((e) => e.id === id)!);
      const merged = op.merged_insight?.trim() || `${first!.insight} ${insight.insight}`;
      const all = [first!, ...rest];
      first!.insight = merged;
      first!.utility = Math.max(...all.map((e) => e.utility));
      first!.uses = all.reduce((s, e) => s + e.uses, 0);
      entries = entries.filter((e) => !rest.includes(e));
      changes.push({ operation: 'MERGE', insight: insight.insight, entries: targets, rationale: op.rationale });
      continue;
    }
    // PRUNE: FILTERLOWUTILITY(matches), then the new insight takes their place.
    const low = targets.filter((id) => entries.find((e) => e.id === id)!.utility <= options.pruneUtility);
    if (low.length === 0) {
      changes.push({ operation: 'KEEP', insight: insight.insight, entries: [], rationale: `conflicts with higher-utility ${targets.join(', ')}: kept the library` });
      continue;
    }
    entries = entries.filter((e) => !low.includes(e.id));
    add(insight.insight, op.rationale, 'PRUNE', low);
  }
  if (entries.length > options.maxEntries) {
    const order = entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.utility - b.e.utility || a.e.uses - b.e.uses || a.i - b.i);
    const drop = new Set(order.slice(0, entries.length - options.maxEntries).map((x) => x.e.id));
    entries = entries.filter((e) => !drop.has(e.id));
  }
  return { library: entries, changes, nextId };
}

/** Two statements of one lesson: equal once case, quotes, spacing and end punctuation are set aside. */
function sameLesson(a: string, b: string): boolean {
  const norm = (t: string) => t.toLowerCase().replace(/["'“”‘’`]/g, '').replace(/\s+/g, ' ').trim().replace(/[.!;:,]+$/, '').trim();
  return norm(a) === norm(b);
}

/**
 * Algorithm 3 lines 15–19: every insight given to the orchestrator in a run is used once more
 * (`uses`), and its utility rises by one when that run succeeded (F1 ≥ the success threshold).
 */
export function creditUtility(library: readonly ExperienceEntry[], runs: ReadonlyArray<{ experiences: readonly string[]; success: boolean }>): ExperienceEntry[] {
  return library.map((e) => {
    const used = runs.filter((r) => r.experiences.includes(e.id));
    if (used.length === 0) return e;
    return { ...e, uses: e.uses + used.length, utility: e.utility + used.filter((r) => r.success).length };
  });
}

/** The library prompt's call: the operations for a reflection's insights. */
export async function chooseLibraryOperations(model: ModelPort, library: readonly ExperienceEntry[], reflection: HeraReflection, profile: QueryProfile): Promise<HeraLibraryOps> {
  const { output } = await model.call({
    prompt: heraLibraryPrompt,
    vars: {
      memory: library.map((e) => ({ id: e.id, query_type: e.profile.query_type, insight: e.insight, utility: e.utility })),
      analysis: `${profile.query_type}, ${profile.complexity}: ${profile.profile}`,
      trajectory: reflection.insights.map((i) => ({ query_type: i.query_type, insight: i.insight })),
    },
  });
  return output;
}
