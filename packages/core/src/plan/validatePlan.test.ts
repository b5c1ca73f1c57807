import { PlanError, type PlanProblem } from '../errors';
import { createPlan } from './createPlan';
import type { Plan } from './types';
import { assertValidPlan, validatePlan } from './validatePlan';

const kinds = (problems: PlanProblem[]) => problems.map((p) => [p.kind, p.step]);

describe('validatePlan', () => {
  it('accepts an OPERA three-step plan', () => {
    const plan = createPlan([
      'Who directed Inception?',
      'Where was [director from step 1] born?',
      'What is the population of [city from step 2]?',
    ]);
    expect(validatePlan(plan)).toEqual([]);
  });

  it('reports an empty plan', () => {
    expect(validatePlan({ steps: [] })).toEqual([{ kind: 'empty', message: 'the plan has no steps' }]);
  });

  it('reports a blank question, naming the step', () => {
    const problems = validatePlan(createPlan(['Who directed Inception?', '  ']));
    expect(kinds(problems)).toEqual([['empty', '2']]);
    expect(problems[0]?.message).toBe('step 2 has an empty question');
  });

  it('reports a duplicated id', () => {
    const plan: Plan = {
      steps: [
        { id: '1', question: 'Who wrote Dune?', dependsOn: [] },
        { id: '1', question: 'When was Dune published?', dependsOn: [] },
      ],
    };
    const problems = validatePlan(plan);
    expect(kinds(problems)).toEqual([['duplicate-step', '1']]);
    expect(problems[0]?.message).toContain('positions 1 and 2');
  });

  it('reports a dependency on a step that is not in the plan', () => {
    const plan = createPlan([{ question: 'Who wrote Dune?' }, { question: 'When?', dependsOn: ['9'] }]);
    const problems = validatePlan(plan);
    expect(kinds(problems)).toEqual([['unknown-step', '2']]);
    expect(problems[0]?.message).toBe('step 2 depends on step 9, which is not in the plan (steps: 1, 2)');
  });

  it('reports a step that depends on itself, once, quoting the placeholder that does it', () => {
    const problems = validatePlan(createPlan(['Who directed Inception?', 'Who is the spouse of [person from step 2]?']));
    expect(kinds(problems)).toEqual([['self-reference', '2']]);
    expect(problems[0]?.message).toBe('step 2 refers to its own answer through "[person from step 2]"');
  });

  it('reports a self-dependency declared in dependsOn', () => {
    const problems = validatePlan({ steps: [{ id: 'a', question: 'Who?', dependsOn: ['a'] }] });
    expect(problems.map((p) => p.message)).toEqual(['step a depends on itself']);
  });

  it('reports a placeholder naming a step that does not exist', () => {
    const problems = validatePlan(createPlan(['Who directed Inception?', 'Where was #3 born?']));
    expect(kinds(problems)).toEqual([['dangling-placeholder', '2']]);
    expect(problems[0]?.message).toBe('step 2 uses "#3", but there is no step 3 (steps: 1, 2)');
  });

  it('reports a placeholder naming a step its step does not depend on', () => {
    const plan: Plan = {
      steps: [
        { id: '1', question: 'Who directed Inception?', dependsOn: [] },
        { id: '2', question: 'Where was [director from step 1] born?', dependsOn: [] },
      ],
    };
    const problems = validatePlan(plan);
    expect(kinds(problems)).toEqual([['dangling-placeholder', '2']]);
    expect(problems[0]?.message).toContain('add "1" to dependsOn');
  });

  it('accepts a placeholder naming a step reached through other steps', () => {
    const plan: Plan = {
      steps: [
        { id: '1', question: 'Who directed Inception?', dependsOn: [] },
        { id: '2', question: 'Where was [director from step 1] born?', dependsOn: ['1'] },
        { id: '3', question: 'Is [city from step 2] the capital where [director from step 1] works?', dependsOn: ['2'] },
      ],
    };
    expect(validatePlan(plan)).toEqual([]);
  });

  it('names the steps of a cycle and one loop through them', () => {
    const plan = createPlan([
      { question: 'a', dependsOn: ['3'] },
      { question: 'b', dependsOn: ['1'] },
      { question: 'c', dependsOn: ['2'] },
      { question: 'd', dependsOn: [] },
    ]);
    const problems = validatePlan(plan);
    expect(kinds(problems)).toEqual([['cycle', '1']]);
    expect(problems[0]?.message).toBe(
      'steps 1, 2, 3 depend on each other in a cycle: 1 → 3 → 2 → 1 (each depends on the next)',
    );
  });

  it('reports each separate cycle', () => {
    const plan = createPlan([
      { question: 'a', dependsOn: ['2'] },
      { question: 'b', dependsOn: ['1'] },
      { question: 'c', dependsOn: ['4'] },
      { question: 'd', dependsOn: ['3'] },
    ]);
    expect(kinds(validatePlan(plan))).toEqual([
      ['cycle', '1'],
      ['cycle', '3'],
    ]);
  });

  it('checks agent topologies that have no questions', () => {
    const topology = {
      steps: [
        { id: '1', dependsOn: [] },
        { id: '2', dependsOn: ['1', '5'] },
      ],
    };
    expect(kinds(validatePlan(topology))).toEqual([['unknown-step', '2']]);
  });
});

describe('assertValidPlan', () => {
  it('passes a valid plan', () => {
    expect(() => assertValidPlan(createPlan(['Who wrote Dune?', 'When was #1 born?']))).not.toThrow();
  });

  it('throws a PlanError listing every problem', () => {
    const plan = createPlan([
      { question: 'Who wrote Dune?', dependsOn: ['2'] },
      { question: 'When was [author from step 1] born, and [x from step 8]?' },
      { question: '' },
    ]);
    let error: unknown;
    try {
      assertValidPlan(plan);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PlanError);
    const planError = error as PlanError;
    expect(planError.code).toBe('PLAN');
    expect(kinds(planError.problems)).toEqual([
      ['dangling-placeholder', '2'],
      ['empty', '3'],
      ['cycle', '1'],
    ]);
    expect(planError.message).toBe(
      [
        'invalid plan, 3 problems:',
        '- step 2 uses "[x from step 8]", but there is no step 8 (steps: 1, 2, 3)',
        '- step 3 has an empty question',
        '- steps 1, 2 depend on each other in a cycle: 1 → 2 → 1 (each depends on the next)',
      ].join('\n'),
    );
  });
});
