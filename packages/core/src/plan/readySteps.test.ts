import { createPlan } from './createPlan';
import { readySteps } from './readySteps';
import { substitutePlaceholders } from './substitutePlaceholders';

const ids = (steps: { id: string }[]) => steps.map((s) => s.id);

describe('readySteps', () => {
  it('walks an OPERA plan sub-goal by sub-goal as trajectory memory fills', () => {
    const plan = createPlan(['Who directed Inception?', 'Where was [director from step 1] born?']);
    const memory = new Map<string, string>();
    expect(ids(readySteps(plan, memory))).toEqual(['1']);
    memory.set('1', 'Christopher Nolan');
    const [next] = readySteps(plan, memory);
    expect(next?.id).toBe('2');
    expect(substitutePlaceholders(next!.question, memory)).toBe('Where was Christopher Nolan born?');
    memory.set('2', 'London');
    expect(readySteps(plan, memory)).toEqual([]);
  });

  it('offers independent steps together', () => {
    const plan = createPlan(['When was Ann born?', 'When was Bob born?', 'Is #1 before #2?']);
    expect(ids(readySteps(plan, {}))).toEqual(['1', '2']);
    expect(ids(readySteps(plan, { '1': '1950' }))).toEqual(['2']);
    expect(ids(readySteps(plan, { '1': '1950', '2': '1960' }))).toEqual(['3']);
  });

  it('holds back a step whose placeholder names a step it does not depend on', () => {
    const plan = { steps: [{ id: '1', question: 'Who?', dependsOn: [] }, { id: '2', question: 'Where is #1?', dependsOn: [] }] };
    expect(ids(readySteps(plan, {}))).toEqual(['1']);
  });
});
