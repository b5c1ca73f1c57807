import { validatePlan, createPlan } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/opera/offline';
import { operaPlanPrompt } from './prompts';

// The offline Plan Agent must give OPERA something to orchestrate on real questions: a
// placeholder chain for a nested question, valid by core's plan utilities. The nested questions
// are MuSiQue train questions (musique/train-100.json).
describe('the offline Plan Agent', () => {
  const planOf = async (question: string, sample?: number) =>
    (await offlineModel({ handlers: offlineHandlers }).call({ prompt: operaPlanPrompt, vars: { question, ...(sample === undefined ? {} : { sample }) } })).output.subGoals;

  it('turns a relative clause and a role inside it into a 3-step placeholder chain', async () => {
    // 3hop1__404363_705261_126049.
    const subGoals = await planOf('Who was in charge of the country where the composer of Aschenbrodel was a citizen?');
    expect(subGoals.map((s) => s.question)).toEqual([
      'Who is the composer of Aschenbrodel?',
      'What is the country where [composer from step 1] was a citizen?',
      'Who was in charge of [country from step 2]?',
    ]);
    expect(subGoals.map((s) => s.dependsOn)).toEqual([[], [1], [2]]);
    expect(validatePlan(createPlan(subGoals))).toEqual([]);
  });

  it('plans a 4-hop question (4hop1__709382_146811_31223_91015) as four chained sub-goals', async () => {
    const subGoals = await planOf("How many Publix stores are in the state that borders the east of the state where Hello Love's performer lived in when he died?");
    expect(subGoals).toHaveLength(4);
    expect(subGoals.map((s) => s.dependsOn)).toEqual([[], [1], [2], [3]]);
    expect(validatePlan(createPlan(subGoals))).toEqual([]);
  });

  it('keeps a single-fact question as one sub-goal', async () => {
    expect((await planOf('Who wrote Dune?')).map((s) => s.question)).toEqual(['Who wrote Dune?']);
  });

  it('draws different, seeded candidates when asked for samples', async () => {
    // 2hop__334380_326459, a county chain.
    const question = 'What county shares a border with the county where Black Hawk Township is located?';
    const samples = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((k) => planOf(question, k)));
    expect(new Set(samples.map((s) => JSON.stringify(s))).size).toBeGreaterThan(1);
    expect(await planOf(question, 3)).toEqual(samples[2]);
  });
});
