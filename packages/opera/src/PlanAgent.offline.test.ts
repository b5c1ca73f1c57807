import { validatePlan, createPlan } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/opera/offline';
import { operaPlanPrompt } from './prompts';

// The offline Plan Agent must give OPERA something to orchestrate on real questions: a
// placeholder chain for a nested question, valid by core's plan utilities.
describe('the offline Plan Agent', () => {
  const planOf = async (question: string, sample?: number) =>
    (await offlineModel({ handlers: offlineHandlers }).call({ prompt: operaPlanPrompt, vars: { question, ...(sample === undefined ? {} : { sample }) } })).output.subGoals;

  it('turns a relative clause and a possessive into a 3-step placeholder chain', async () => {
    const subGoals = await planOf("Who is the spouse of the actress who played Anna Benson's mother?");
    expect(subGoals.map((s) => s.question)).toEqual([
      "Who is Anna Benson's mother?",
      'Who is the actress who played [mother from step 1]?',
      'Who is the spouse of [actress from step 2]?',
    ]);
    expect(subGoals.map((s) => s.dependsOn)).toEqual([[], [1], [2]]);
    expect(validatePlan(createPlan(subGoals))).toEqual([]);
  });

  it('plans a 4-hop question (musique/train-100.json) as four chained sub-goals', async () => {
    const subGoals = await planOf("How many Publix stores are in the state that borders the east of the state where Hello Love's performer lived in when he died?");
    expect(subGoals).toHaveLength(4);
    expect(subGoals.map((s) => s.dependsOn)).toEqual([[], [1], [2], [3]]);
    expect(validatePlan(createPlan(subGoals))).toEqual([]);
  });

  it('keeps a single-fact question as one sub-goal', async () => {
    expect((await planOf('Who wrote Dune?')).map((s) => s.question)).toEqual(['Who wrote Dune?']);
  });

  it('draws different, seeded candidates when asked for samples', async () => {
    const question = 'What is the seat of the county where Van Hook Township is located?';
    const samples = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((k) => planOf(question, k)));
    expect(new Set(samples.map((s) => JSON.stringify(s))).size).toBeGreaterThan(1);
    expect(await planOf(question, 3)).toEqual(samples[2]);
  });
});
