import fc from 'fast-check';
import { PlanError } from '../errors';
import { createPlan, type PlanStepInput } from './createPlan';
import { findCycles } from './findCycles';
import { findPlaceholders } from './findPlaceholders';
import { readySteps } from './readySteps';
import { substitutePlaceholders, unresolvedPlaceholders } from './substitutePlaceholders';
import { topologicalLayers, topologicalOrder } from './topologicalOrder';
import type { Plan } from './types';
import { validatePlan } from './validatePlan';

/**
 * A random DAG: step of rank i may depend only on ranks below i, so it is acyclic by
 * construction. Ids are the numbers 1..n shuffled (so placeholders can name them and rank
 * never equals id), and the plan lists the steps in a shuffled order, so plan order is not
 * already a topological order. Each edge is declared explicitly, by a bracket placeholder
 * or by a `#N` placeholder.
 */
interface RandomDag {
  plan: Plan;
  /** `edges[i]` = ids step `i` (by id) depends on. */
  edges: Map<string, Set<string>>;
  /** Ids in rank order: a topological order by construction. */
  ranked: string[];
}

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

const randomDag = (options: { shuffleSteps: boolean } = { shuffleSteps: true }): fc.Arbitrary<RandomDag> =>
  fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc
      .record({
        // per ordered pair (i, j): 0 no edge; 1 explicit; 2 bracket placeholder; 3 hash placeholder.
        pairs: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n * n, maxLength: n * n }),
        idOfRank: permutation(n),
        stepOrder: permutation(n),
      })
      .map(({ pairs, idOfRank, stepOrder }) => {
        const ranked = idOfRank.map((k) => String(k + 1));
        const edges = new Map<string, Set<string>>();
        const inputs: PlanStepInput[] = ranked.map((id, i) => {
          const dependsOn: string[] = [];
          const parts = [`sub-goal ${i}`];
          const deps = new Set<string>();
          for (let j = 0; j < i; j++) {
            const dep = ranked[j]!;
            const mode = pairs[i * n + j];
            if (mode === 1) dependsOn.push(dep);
            if (mode === 2) parts.push(`[entity from step ${dep}]`);
            if (mode === 3) parts.push(`#${dep}`);
            if (mode !== 0 && mode !== undefined) deps.add(dep);
          }
          edges.set(id, deps);
          return { id, question: `${parts.join(' and ')}?`, dependsOn };
        });
        const order = options.shuffleSteps ? stepOrder : stepOrder.map((_, i) => i);
        return { plan: createPlan(order.map((i) => inputs[i]!)), edges, ranked };
      }),
  );

describe('plans built from random DAGs', () => {
  it('are valid, with exactly the dependencies drawn', () => {
    fc.assert(
      fc.property(randomDag(), ({ plan, edges }) => {
        expect(validatePlan(plan)).toEqual([]);
        for (const step of plan.steps) expect(new Set(step.dependsOn)).toEqual(edges.get(step.id));
      }),
    );
  });

  it('have a topological order holding each step once, after all its dependencies', () => {
    fc.assert(
      fc.property(randomDag(), ({ plan }) => {
        const order = topologicalOrder(plan).map((s) => s.id);
        expect([...order].sort()).toEqual(plan.steps.map((s) => s.id).sort());
        const position = new Map(order.map((id, at) => [id, at]));
        for (const step of plan.steps) {
          for (const dep of step.dependsOn) expect(position.get(dep)!).toBeLessThan(position.get(step.id)!);
        }
      }),
    );
  });

  it('keep their own order when it already is topological', () => {
    fc.assert(
      fc.property(randomDag({ shuffleSteps: false }), ({ plan }) => {
        expect(topologicalOrder(plan)).toEqual(plan.steps);
      }),
    );
  });

  it('have layers that partition the steps, each as early as its dependencies allow', () => {
    fc.assert(
      fc.property(randomDag(), ({ plan }) => {
        const layers = topologicalLayers(plan);
        const layerOf = new Map<string, number>();
        layers.forEach((layer, k) => {
          expect(layer.length).toBeGreaterThan(0);
          for (const step of layer) {
            expect(layerOf.has(step.id)).toBe(false);
            layerOf.set(step.id, k);
          }
        });
        expect(layerOf.size).toBe(plan.steps.length);
        for (const step of plan.steps) {
          const k = layerOf.get(step.id)!;
          const depLayers = step.dependsOn.map((dep) => layerOf.get(dep)!);
          for (const d of depLayers) expect(d).toBeLessThan(k);
          expect(k).toBe(depLayers.length === 0 ? 0 : Math.max(...depLayers) + 1);
        }
      }),
    );
  });

  it('are walked layer by layer by readySteps, filling every placeholder on the way', () => {
    fc.assert(
      fc.property(randomDag(), ({ plan }) => {
        const answers = new Map<string, string>();
        const rounds: string[][] = [];
        for (let batch = readySteps(plan, answers); batch.length > 0; batch = readySteps(plan, answers)) {
          rounds.push(batch.map((s) => s.id));
          for (const step of batch) {
            expect(unresolvedPlaceholders(step.question, answers)).toEqual([]);
            expect(findPlaceholders(substitutePlaceholders(step.question, answers))).toEqual([]);
            answers.set(step.id, `answer ${step.id}`);
          }
        }
        expect(rounds).toEqual(topologicalLayers(plan).map((layer) => layer.map((s) => s.id)));
      }),
    );
  });

  it('get a cycle, reported by validation, when a back edge is added', () => {
    const withBackEdge = randomDag().chain((dag) => {
      // Pairs (late, early) where late reaches early through dependencies: early depending on
      // late then closes a loop.
      const pairs: Array<[string, string]> = [];
      for (const late of dag.ranked) {
        for (const early of reachable(dag.edges, late)) pairs.push([late, early]);
      }
      return pairs.length === 0 ? fc.constant(null) : fc.constantFrom(...pairs).map((pair) => ({ dag, pair }));
    });
    fc.assert(
      fc.property(withBackEdge, (drawn) => {
        if (drawn === null) return;
        const { dag, pair } = drawn;
        const [late, early] = pair;
        const plan: Plan = {
          steps: dag.plan.steps.map((s) => (s.id === early ? { ...s, dependsOn: [...s.dependsOn, late] } : s)),
        };
        const cycles = validatePlan(plan).filter((p) => p.kind === 'cycle');
        expect(cycles).toHaveLength(1);
        const [loop] = findCycles(plan);
        expect(findCycles(plan)).toHaveLength(1);
        expect(loop).toEqual(expect.arrayContaining([late, early]));
        loop!.forEach((id, at) => {
          const next = loop![(at + 1) % loop!.length]!;
          expect(plan.steps.find((s) => s.id === id)!.dependsOn).toContain(next);
        });
        expect(cycles[0]!.message).toContain(loop!.join(' → '));
        expect(() => topologicalOrder(plan)).toThrow(PlanError);
      }),
    );
  });
});

const stepNumber = fc.integer({ min: 1, max: 30 });
const placeholderText = fc.oneof(
  stepNumber.map((n) => `#${n}`),
  fc
    .tuple(stepNumber, fc.constantFrom('entity from step', 'ANSWER TO Step', 'the year of step #', 'person from step'))
    .map(([n, wording]) => `[${wording}${wording.endsWith('#') ? '' : ' '}${n}]`),
  stepNumber.map((n) => `[#${n}]`),
);
const segment = fc.oneof(
  fc.stringMatching(/^[a-z?,.']{1,8}$/).map((word) => ({ word })),
  placeholderText.map((placeholder) => ({ placeholder })),
);
const answer = fc.stringMatching(/^[A-Za-z0-9 .,'$&-]{0,16}$/);

describe('substitution over random texts', () => {
  it('replaces exactly the resolved placeholders and leaves none of them behind', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 12 }),
        fc.dictionary(stepNumber.map(String), answer),
        (segments, answers) => {
          const text = segments.map((s) => ('word' in s ? s.word : s.placeholder)).join(' ');
          const placeholders = segments.flatMap((s) => ('placeholder' in s ? [s.placeholder] : []));
          expect(findPlaceholders(text).map((p) => p.raw)).toEqual(placeholders);

          const result = substitutePlaceholders(text, answers);
          const expected = segments
            .map((s) => {
              if ('word' in s) return s.word;
              const ref = findPlaceholders(s.placeholder)[0]!.stepRef;
              return Object.hasOwn(answers, ref) ? answers[ref]! : s.placeholder;
            })
            .join(' ');
          expect(result).toBe(expected);
          const left = findPlaceholders(result);
          for (const p of left) expect(Object.hasOwn(answers, p.stepRef)).toBe(false);
          expect(left.map((p) => p.raw)).toEqual(unresolvedPlaceholders(text, answers).map((p) => p.raw));
        },
      ),
    );
  });
});

function reachable(edges: Map<string, Set<string>>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(edges.get(from) ?? [])];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(edges.get(id) ?? []));
  }
  return seen;
}
