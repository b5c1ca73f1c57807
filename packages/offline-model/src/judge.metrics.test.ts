import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { offlineModel } from './createOfflineProvider';
import { judgeCorrectness } from '@multihop/metrics';

// The judge end to end: the registered PAR² A.2 prompt, through the real model port, answered
// by the offline model (its lexical judge stands where GPT-4 stood in the paper).
describe('judgeCorrectness with the registered prompt and the offline model', () => {
  const model = offlineModel();

  it('says yes when the prediction holds the gold answer and no when it does not', async () => {
    const question = 'What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?';
    const right = await judgeCorrectness(model, { question, prediction: 'She was Chief of Protocol.', gold: 'Chief of Protocol' }, { prompt: judgeCorrectnessPrompt });
    const wrong = await judgeCorrectness(model, { question, prediction: 'Shirley Temple', gold: 'Chief of Protocol' }, { prompt: judgeCorrectnessPrompt });
    expect(right).toMatchObject({ decision: 'yes', correct: 1 });
    expect(wrong).toMatchObject({ decision: 'no', correct: 0 });
    expect(right.usage).toMatchObject({ role: 'judge', model: 'offline', estimated: true });
  });
});
