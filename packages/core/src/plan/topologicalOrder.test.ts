import { PlanError } from '../errors';
import { createPlan } from './createPlan';
import { topologicalLayers, topologicalOrder } from './topologicalOrder';

const ids = (steps: { id: string }[]) => steps.map((s) => s.id);

describe('topologicalOrder', () => {
  it('keeps a plan that is already in order unchanged', () => {
    const plan = createPlan(['Who directed Inception?', 'Where was #1 born?', 'What is the population of #2?']);
    expect(topologicalOrder(plan)).toEqual(plan.steps);
  });

  it('moves a step after the steps it depends on, keeping plan order otherwise', () => {
    const plan = createPlan([
      { id: 'compare', question: 'Is Ann older than Bob?', dependsOn: ['a', 'b'] },
      { id: 'a', question: 'When was Ann born?' },
      { id: 'b', question: 'When was Bob born?' },
    ]);
    expect(ids(topologicalOrder(plan))).toEqual(['a', 'b', 'compare']);
  });

  it('orders an empty plan as nothing', () => {
    expect(topologicalOrder({ steps: [] })).toEqual([]);
  });

  it('refuses a cycle with a PlanError naming it', () => {
    const plan = createPlan([{ question: 'a', dependsOn: ['2'] }, { question: 'b', dependsOn: ['1'] }]);
    expect(() => topologicalOrder(plan)).toThrow(PlanError);
    expect(() => topologicalOrder(plan)).toThrow(/1 → 2 → 1/);
  });

  it('refuses unknown dependencies and duplicate ids', () => {
    expect(() => topologicalOrder({ steps: [{ id: '1', dependsOn: ['0'] }] })).toThrow(/step 0, which is not in the plan/);
    expect(() => topologicalOrder({ steps: [{ id: '1', dependsOn: [] }, { id: '1', dependsOn: [] }] })).toThrow(
      /appears more than once/,
    );
  });

  it('orders a plan whose only problem is a dangling placeholder, which does not affect order', () => {
    expect(ids(topologicalOrder(createPlan(['Who is #4?', 'Where?'])))).toEqual(['1', '2']);
  });
});

describe('topologicalLayers', () => {
  it('groups the steps that can run in parallel (a comparison question)', () => {
    const plan = createPlan([
      'When was Inception released?',
      'When was Interstellar released?',
      'Which came first, #1 or #2?',
      'Who directed [film from step 3]?',
    ]);
    expect(topologicalLayers(plan).map(ids)).toEqual([['1', '2'], ['3'], ['4']]);
  });

  it('puts a step in the layer after its deepest dependency', () => {
    const plan = createPlan([
      { id: 'late', question: 'q', dependsOn: ['mid', 'root'] },
      { id: 'root', question: 'q' },
      { id: 'mid', question: 'q', dependsOn: ['root'] },
      { id: 'free', question: 'q' },
    ]);
    expect(topologicalLayers(plan).map(ids)).toEqual([['root', 'free'], ['mid'], ['late']]);
  });

  it('layers an empty plan as no layers', () => {
    expect(topologicalLayers({ steps: [] })).toEqual([]);
  });

  it('refuses a self-dependency', () => {
    expect(() => topologicalLayers({ steps: [{ id: '1', dependsOn: ['1'] }] })).toThrow(/step 1 depends on itself/);
  });
});
