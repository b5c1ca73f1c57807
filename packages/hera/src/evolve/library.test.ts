import { offlineModel } from '@multihop/offline-model';
import type { ExperienceEntry } from '../experience';
import { offlineHandlers } from '../offline';
import { applyLibraryOperations, chooseLibraryOperations, creditUtility } from './library';
import { mutateTopology } from './mutation';
import { consolidate, generateVariant, ROPE_AXES } from './rope';
import { toTopology } from '../topology';

const model = offlineModel({ handlers: offlineHandlers });
const profile = { query_type: 'comparison' as const, complexity: 'medium' as const, profile: 'Compares two bands by founding year.' };
const PAR = 'Query Decomposer → Retriever → Retriever → Answer Generator → Answer Generator → Conclude Agent';
const DIRECT = 'Retriever → Answer Generator';
const CHAIN = 'Query Rewriter → Retriever → Evidence Selector → Answer Generator';
const entry = (id: string, insight: string, utility = 0): ExperienceEntry => ({ id, profile: { query_type: 'comparison', complexity: 'medium' }, insight, utility, uses: 0 });
const update = async (library: ExperienceEntry[], insight: string) => {
  const reflection = { success_factors: [], failure_modes: [], insights: [{ query_type: 'comparison', insight }] };
  const ops = await chooseLibraryOperations(model, library, reflection, profile);
  return applyLibraryOperations(library, reflection, profile, ops, { pruneUtility: 0, maxEntries: 100, nextId: 10 });
};

describe('experience library update (Algorithm 3), offline library prompt', () => {
  it('ADDs a novel insight with u = 0', async () => {
    const { library, changes } = await update([], `For comparison questions, prefer the topology ${PAR} over ${DIRECT}.`);
    expect(changes).toEqual([expect.objectContaining({ operation: 'ADD', entries: ['x10'] })]);
    expect(library).toEqual([expect.objectContaining({ id: 'x10', utility: 0, uses: 0, profile: { query_type: 'comparison', complexity: 'medium', text: profile.profile } })]);
  });

  it('MERGEs a complementary insight (same preferred topology, another worse one) into the entry', async () => {
    const { library, changes } = await update([entry('x1', `For comparison questions, prefer the topology ${PAR} over ${DIRECT}.`, 2)], `For comparison questions, prefer the topology ${PAR} over ${CHAIN}.`);
    expect(changes).toEqual([expect.objectContaining({ operation: 'MERGE', entries: ['x1'] })]);
    expect(library).toHaveLength(1);
    expect(library[0]).toMatchObject({ id: 'x1', utility: 2, insight: `For comparison questions, prefer the topology ${PAR} over ${DIRECT} and over ${CHAIN}.` });
  });

  it('PRUNEs a conflicting lower-utility entry and puts the new insight in its place; a proven one is KEPT', async () => {
    const old = `For comparison questions, prefer the topology ${DIRECT} over ${PAR}.`;
    const fresh = `For comparison questions, prefer the topology ${PAR} over ${DIRECT}.`;
    const pruned = await update([entry('x1', old, 0)], fresh);
    expect(pruned.changes).toEqual([expect.objectContaining({ operation: 'PRUNE', entries: ['x10', 'x1'] })]);
    expect(pruned.library.map((e) => [e.id, e.insight])).toEqual([['x10', fresh]]);
    const kept = await update([entry('x1', old, 3)], fresh);
    expect(kept.changes).toEqual([expect.objectContaining({ operation: 'KEEP' })]);
    expect(kept.library.map((e) => e.id)).toEqual(['x1']);
  });

  it('KEEPs a near-repeat', async () => {
    const insight = `For comparison questions, prefer the topology ${PAR} over ${DIRECT}.`;
    const { library, changes } = await update([entry('x1', insight, 1)], insight);
    expect(changes).toEqual([expect.objectContaining({ operation: 'KEEP' })]);
    expect(library).toEqual([entry('x1', insight, 1)]);
  });

  it('matches an operation to its lesson when a model restates the lesson (a full stop, quotes, another case), or by position', () => {
    const lesson = 'Retrieve the bridge entity before answering';
    const reflection = { success_factors: [], failure_modes: [], insights: [{ query_type: 'bridge', insight: lesson }, { query_type: 'bridge', insight: 'Compare dates directly' }] };
    const op = (new_insight: string) => ({ operation: 'ADD' as const, new_insight, target_entry_ids: [], merged_insight: null, rationale: 'novel' });
    const options = { pruneUtility: 0, maxEntries: 100, nextId: 1 };
    for (const restated of [`${lesson}.`, `"${lesson}"`, ` ${lesson.toUpperCase()} `]) {
      const { library } = applyLibraryOperations([], reflection, profile, { operations: [op(restated)] }, options);
      expect({ restated, stored: library.map((e) => e.insight) }).toEqual({ restated, stored: [lesson] });
    }
    // One operation per lesson, reworded past recognition: taken in order.
    const { library: byPosition } = applyLibraryOperations([], reflection, profile, { operations: [op('Find the bridge first.'), op('Check the dates.')] }, options);
    expect(byPosition.map((e) => e.insight)).toEqual([lesson, 'Compare dates directly']);
    // An operation that matches no lesson adds nothing, and the change says why.
    const { library: none, changes } = applyLibraryOperations([], reflection, profile, { operations: [op('Something else entirely')] }, options);
    expect(none).toEqual([]);
    expect(changes[0]!.rationale).toBe('no operation matched this lesson (the operations named: "Something else entirely")');
  });

  it('credits utility to insights used in a successful run, and a use to every run that saw them', () => {
    const lib = [entry('a', 'x'), entry('b', 'y')];
    expect(creditUtility(lib, [{ experiences: ['a'], success: true }, { experiences: ['a', 'b'], success: false }]).map((e) => [e.id, e.utility, e.uses])).toEqual([['a', 1, 2], ['b', 0, 1]]);
  });
});

describe('RoPE consolidation and topology mutation', () => {
  it('keeps the core instructions and at most K rules and principles, newest first', () => {
    const core = 'You are the Answer Generator.';
    let prev = { rules: [] as string[], principles: [] as string[] };
    for (const axis of Object.keys(ROPE_AXES) as Array<keyof typeof ROPE_AXES>) {
      const next = consolidate(core, prev, { rules: [ROPE_AXES[axis]], principles: [`[${axis}] principle for ${axis}`] }, 4);
      expect(next.rules.length + next.principles.length).toBeLessThanOrEqual(4);
      expect(next.system.startsWith(core)).toBe(true);
      prev = next;
    }
    expect(prev.rules[0]).toBe(ROPE_AXES['heuristic injection']);
    expect(generateVariant(core, 'efficiency')).toBe(`${core}\n${ROPE_AXES.efficiency}`);
  });

  it('replaces the failing agent with its alternative, or inserts agents after it, rewiring its dependents', () => {
    const t = toTopology({ execution_order: [{ step: 1, agent: 'Retriever', depends_on: [] }, { step: 2, agent: 'Answer Generator', depends_on: [1] }] });
    expect(mutateTopology(t, 'Answer Generator').map((c) => [c.kind, c.topology.execution_order!.map((s) => `${s.step}:${s.agent}<${(s.depends_on ?? []).join(',')}`)])).toEqual([
      ['replace', ['1:Retriever<', '2:Conclude Agent<1']],
      ['augment', ['1:Retriever<', '2:Answer Generator<1', '3:Conclude Agent<2']],
    ]);
    expect(mutateTopology(t, 'Retriever').map((c) => [c.kind, c.topology.execution_order!.map((s) => `${s.step}:${s.agent}<${(s.depends_on ?? []).join(',')}`)])).toEqual([
      ['augment', ['1:Retriever<', '2:Answer Generator<4', '3:Context Validator<1', '4:Retriever<3']],
    ]);
  });
});
