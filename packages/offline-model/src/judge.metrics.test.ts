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

  it('reads a yes/no answer by its first yes or no, not by the word appearing somewhere', async () => {
    // HotpotQA train 5ae161d65542997b2ef7d1bc (gold: yes): a comparison question with a closed answer.
    const question = 'Are Medici and Senet both board games?';
    const verdict = (prediction: string, gold: string) => judgeCorrectness(model, { question, prediction, gold }, { prompt: judgeCorrectnessPrompt });
    expect(await verdict('Yes, both are board games.', 'yes')).toMatchObject({ decision: 'yes' });
    expect(await verdict('The answer is yes.', 'yes')).toMatchObject({ decision: 'yes' });
    // The gold word is in each of these, and each answers the other way.
    expect(await verdict('Yes, there is no doubt about it.', 'no')).toMatchObject({ decision: 'no' });
    expect(await verdict('No. Yes would need both to be board games.', 'yes')).toMatchObject({ decision: 'no' });
    expect(await verdict('Both are games.', 'yes')).toMatchObject({ decision: 'no' });
  });

  it('reads past typography, encodings and scripts without spaces, as a language model would, and still says no to another answer', async () => {
    const question = 'q';
    const decision = async (prediction: string, gold: string) => (await judgeCorrectness(model, { question, prediction, gold }, { prompt: judgeCorrectnessPrompt })).decision;
    const same: Array<[string, string]> = [
      ['Ireland’s', "Ireland's"],
      ['Jean–Pierre Jeunet', 'Jean-Pierre Jeunet'],
      ['Zu\u0308rich', 'Zürich'],
      ['１９８０', '1980'],
      ['New\u200bYork', 'New York'],
      ['«Война и мир»', 'Война и мир'],
      ['中华人民共和国。', '中华人民共和国'],
      ['北京是中华人民共和国的首都', '中华人民共和国'],
    ];
    for (const [prediction, gold] of same) expect([prediction, await decision(prediction, gold)]).toEqual([prediction, 'yes']);
    for (const [prediction, gold] of [['北京', '上海'], ['东京', '北京'], ['Zürich', 'Bern']] as const) expect([prediction, await decision(prediction, gold)]).toEqual([prediction, 'no']);
  });
});
