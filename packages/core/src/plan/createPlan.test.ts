import { createPlan } from './createPlan';

describe('createPlan', () => {
  it("turns OPERA's sub-goal list into numbered steps with the dependencies its placeholders imply", () => {
    const plan = createPlan([
      'Who directed Inception?',
      'Where was [director from step 1] born?',
      'What is the population of [city from step 2], home of [director from step 1]?',
    ]);
    expect(plan.steps).toEqual([
      { id: '1', question: 'Who directed Inception?', dependsOn: [] },
      { id: '2', question: 'Where was [director from step 1] born?', dependsOn: ['1'] },
      {
        id: '3',
        question: 'What is the population of [city from step 2], home of [director from step 1]?',
        dependsOn: ['2', '1'],
      },
    ]);
  });

  it('builds a HotpotQA #N decomposition', () => {
    const plan = createPlan(['Which film did Nolan direct in 2010?', 'Who composed the score of #1?']);
    expect(plan.steps.map((s) => s.dependsOn)).toEqual([[], ['1']]);
  });

  it('merges explicit dependsOn / depends_on with the implied ones, without repeats', () => {
    const plan = createPlan({
      steps: [
        { question: 'Who founded Acme?' },
        { question: 'When was Acme founded?' },
        { id: 3, question: 'How old was [founder from step 1] then?', depends_on: [2], dependsOn: ['1'] },
      ],
    });
    expect(plan.steps[2]).toEqual({ id: '3', question: 'How old was [founder from step 1] then?', dependsOn: ['1', '2'] });
  });

  it("takes HERA's numbered `step` as the id", () => {
    const plan = createPlan([
      { step: 1, question: 'retrieve', depends_on: [] },
      { step: 2, question: 'answer', depends_on: [1] },
    ]);
    expect(plan.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
  });

  it('adds no dependency for a placeholder naming a missing step, leaving it for validation', () => {
    const plan = createPlan(['Who is [person from step 7]?']);
    expect(plan.steps[0]?.dependsOn).toEqual([]);
  });

  it('keeps a self-referring placeholder as a dependency on itself, which validation reports', () => {
    expect(createPlan(['Who is #1?']).steps[0]?.dependsOn).toEqual(['1']);
  });

  it('builds an empty plan from an empty list', () => {
    expect(createPlan([])).toEqual({ steps: [] });
  });
});
