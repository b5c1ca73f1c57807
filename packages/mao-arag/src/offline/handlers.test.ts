import { offlineModel } from '@multihop/offline-model';
import { maoAnswerPrompt, maoDecomposeParallelPrompt, maoDecomposeSerialPrompt, maoPlannerPrompt, maoReviseSerialPrompt, maoSubPlannerPrompt, maoSummarisePrompt } from '../prompts';
import { offlineHandlers } from './index';

const model = offlineModel({ handlers: offlineHandlers });
const call = async <T>(prompt: Parameters<typeof model.call<T>>[0]['prompt'], vars: Record<string, unknown>) => (await model.call({ prompt, vars })).output;
const step = (subGoal: string, answer: string) => ({ step: '1', subGoal, answer, status: 'yes' });

// Questions from the shared train splits (hotpotqa/train-100.json).
describe('the offline executors', () => {
  it('plan by the question’s shape: QDP for a comparison, QDS for a nested description, the full pipeline otherwise; R,AG for a sub-question', async () => {
    expect(await call(maoPlannerPrompt, { question: 'Which band was formed first The Exies or Circus Diablo ?' })).toEqual({ workflow: 'Workflow: QDP' });
    expect(await call(maoPlannerPrompt, { question: 'Who directed the film that was shot in or around Leland, North Carolina in 1986' })).toEqual({ workflow: 'Workflow: QDS' });
    expect(await call(maoPlannerPrompt, { question: 'If Gallu is a demon Lilu is what?' })).toEqual({ workflow: 'Workflow: QR,R,DS,AG' });
    expect(await call(maoSubPlannerPrompt, { question: 'What film was shot in Leland?' })).toEqual({ workflow: 'Workflow: R,AG' });
  });

  it('QDS splits a nested question, then writes each answer into the next step', async () => {
    const { subQuestions } = await call(maoDecomposeSerialPrompt, { question: 'Who directed the film that was shot in or around Leland, North Carolina in 1986', count: 4 });
    expect(subQuestions).toHaveLength(2);
    expect(subQuestions[1]).toMatch(/\[.* from step 1\]/);
    const revised = await call(maoReviseSerialPrompt, { question: 'q', subGoal: subQuestions[1], trajectory: [step(subQuestions[0]!, 'Maximum Overdrive')] });
    expect(revised.question).toContain('Maximum Overdrive');
    expect(revised.question).not.toMatch(/from step/);
  });

  it('QDP asks each compared thing what the comparison needs, and AS settles it from the sub-answers', async () => {
    const question = 'Which band was formed first The Exies or Circus Diablo ?';
    const { subQuestions } = await call(maoDecomposeParallelPrompt, { question, count: 4 });
    expect(subQuestions).toEqual(['When band formed Exies?', 'When band formed Circus Diablo?']);
    const merged = await call(maoSummarisePrompt, { question, trajectory: [step(subQuestions[0]!, '1997'), step(subQuestions[1]!, '2004')] });
    // The option as the question parses it ("The" dropped); F1 against "The Exies" is 1.
    expect(merged.answer).toBe('Exies');
    const both = 'Are Christopher Nolan and Sathish Kalathil both film directors?';
    const parts = await call(maoDecomposeParallelPrompt, { question: both, count: 4 });
    expect(parts.subQuestions).toEqual(['Is Christopher Nolan film directors?', 'Is Sathish Kalathil film directors?']);
    expect((await call(maoSummarisePrompt, { question: both, trajectory: [step(parts.subQuestions[0]!, 'yes'), step(parts.subQuestions[1]!, 'no')] })).answer).toBe('no');
  });

  it('AG reads the passages it is given, and guesses without any', async () => {
    const passages = [{ id: 'p', title: 'Maximum Overdrive', text: 'Maximum Overdrive is a 1986 American horror film written and directed by Stephen King.' }];
    expect((await call(maoAnswerPrompt, { question: 'Who directed Maximum Overdrive?', passages, trajectory: [] })).answer).toBe('Stephen King');
    expect((await call(maoAnswerPrompt, { question: 'Who directed Maximum Overdrive?', passages: [], trajectory: [] })).answer).not.toBe('Stephen King');
  });
});
