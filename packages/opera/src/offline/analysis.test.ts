import { alreadySearched, offlineModel } from '@multihop/offline-model';
import { operaAnalysisAnswerPrompt, operaRewritePrompt } from '../prompts';
import { offlineHandlers } from './index';

// HotpotQA train 5ab26ce1554299449642c89c, one sub-goal: both birth dates are in the retrieved
// sentences, though no single sentence covers the comparison's wording.
const subGoal = 'Who is the oldest, Sid Haig or Vic Darchinyan?';
const sentences = [
  { id: 'a', title: 'Sid Haig', text: 'Sid Haig (born July 14, 1939) is an American actor.' },
  { id: 'b', title: 'Vic Darchinyan', text: 'Vakhtang "Vic" Darchinyan (born 7 January 1976) is an Armenian professional boxer.' },
];

describe('the offline Analysis-Answer and Rewrite Agents on a comparison', () => {
  const model = offlineModel({ handlers: offlineHandlers });

  it('says yes when every option has the value the comparison needs', async () => {
    const { output } = await model.call({ prompt: operaAnalysisAnswerPrompt, vars: { question: subGoal, subGoal, memory: [], passages: sentences } });
    expect(output).toMatchObject({ status: 'yes', answer: 'Sid Haig' });
    // With one option's sentence only, the comparison is not settled.
    const half = await model.call({ prompt: operaAnalysisAnswerPrompt, vars: { question: subGoal, subGoal, memory: [], passages: sentences.slice(0, 1) } });
    expect(half.output.status).toBe('no');
  });

  it('never narrows a comparison to one of its options: it gives up with the sub-goal instead', async () => {
    const tried: string[] = [];
    let query = subGoal;
    for (let round = 0; round < 6; round++) {
      const { output } = await model.call({ prompt: operaRewritePrompt, vars: { subGoal, query, analysis: 'The passages cover 0.35 of the sub-goal.', previousQueries: tried } });
      tried.push(query);
      if (output.query === subGoal) break;
      expect(alreadySearched(output.query, tried)).toBe(false);
      expect(output.query).toMatch(/Sid Haig/);
      expect(output.query).toMatch(/Vic Darchinyan/);
      query = output.query;
    }
    expect(tried.length).toBeLessThan(6);
  });
});
