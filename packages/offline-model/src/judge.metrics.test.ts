import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { offlineModel } from './createOfflineProvider';
import { judgeCorrectness } from '@multihop/metrics';

// The judge end to end: the registered PAR² A.2 prompt, through the real model port, answered
// by the offline model (its lexical judge stands where GPT-4 stood in the paper).
describe('judgeCorrectness with the registered prompt and the offline model', () => {
  const model = offlineModel();

  it('says yes when the prediction holds the gold answer and no when it does not', async () => {
    // HotpotQA train 5a7decc75542995f4f40230f.
    const question = 'What language were books being translated into during the era of Haymo of Faversham?';
    const right = await judgeCorrectness(model, { question, prediction: 'They were translated into Latin.', gold: 'Latin' }, { prompt: judgeCorrectnessPrompt });
    const wrong = await judgeCorrectness(model, { question, prediction: 'Old English', gold: 'Latin' }, { prompt: judgeCorrectnessPrompt });
    expect(right).toMatchObject({ decision: 'yes', correct: 1 });
    expect(wrong).toMatchObject({ decision: 'no', correct: 0 });
    // It answers in the judge's plain-text form, as a language model would, not in JSON.
    expect(right.text).toMatch(/^Explanation: .+\nDecision: yes$/);
    expect(right.usage).toMatchObject({ role: 'judge', model: 'offline', estimated: true });
  });
});
