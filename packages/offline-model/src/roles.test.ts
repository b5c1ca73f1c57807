import { MultihopError } from '@multihop/core';
import { definePrompt, judgeCorrectnessPrompt } from '@multihop/prompts';
import { z } from 'zod';
import { createOfflineProvider, offlineModel } from './createOfflineProvider';
import { defineOfflineHandler } from './OfflineHandler';

const answerPrompt = (id: string, role: string) =>
  definePrompt({ id, role, version: '1', description: 'Answer the question.', template: '{{question}}', schema: z.object({ answer: z.string() }) });

describe('the offline model’s handlers, chosen by role', () => {
  it('refuses two handlers for one role, naming the role and both handlers’ prompts, rather than letting the last answer the other’s calls', () => {
    const theirs = defineOfflineHandler(answerPrompt('baseline.direct', 'direct'), () => ({ answer: 'the baseline' }));
    const mine = defineOfflineHandler(answerPrompt('acme.answer', 'direct'), () => ({ answer: 'ACME' }));
    let thrown: unknown;
    try {
      createOfflineProvider({ handlers: [theirs, mine] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MultihopError);
    expect((thrown as MultihopError).code).toBe('OFFLINE_ROLE');
    expect((thrown as Error).message).toBe(
      'two offline handlers answer role "direct" (prompts baseline.direct; prompts acme.answer): the offline model chooses a handler by role, so each method\'s prompts need roles of their own (prefix them with the method\'s id)',
    );
    // One handler given twice (two methods re-exporting it) is one handler.
    expect(() => createOfflineProvider({ handlers: [theirs, theirs] })).not.toThrow();
  });

  it('lets a method’s handler stand in for a built-in one (the judge’s)', async () => {
    const strict = defineOfflineHandler(judgeCorrectnessPrompt, () => ({ explanation: 'never', decision: 'no' }));
    const model = offlineModel({ handlers: [strict] });
    const { output } = await model.call({ prompt: judgeCorrectnessPrompt, vars: { question: 'q', prediction: 'Paris', gold: 'Paris' } });
    expect(output.decision).toBe('no');
  });
});
