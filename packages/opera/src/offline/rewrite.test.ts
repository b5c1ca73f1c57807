import { alreadySearched, offlineModel } from '@multihop/offline-model';
import { operaRewritePrompt } from '../prompts';
import { offlineHandlers } from './index';

// A sub-goal from the plan of a MuSiQue train question (musique/train-100.json).
describe('the offline Rewrite Agent', () => {
  it('never rewrites into a query already tried while a new one is left, then falls back to the sub-goal', async () => {
    const model = offlineModel({ handlers: offlineHandlers });
    const subGoal = "Who is Izgoy's performer?";
    const tried: string[] = [];
    let query = subGoal;
    const rewrites: string[] = [];
    for (let round = 0; round < 6; round++) {
      const { output } = await model.call({ prompt: operaRewritePrompt, vars: { subGoal, query, analysis: 'The passages cover 0.20 of the sub-goal.', previousQueries: tried } });
      tried.push(query);
      if (output.query === subGoal) break;
      expect(alreadySearched(output.query, tried)).toBe(false);
      rewrites.push(output.query);
      query = output.query;
    }
    // At least two new queries before the fallback.
    expect(rewrites.length).toBeGreaterThanOrEqual(2);
  });
});
