import { createModel, createScriptedProvider, ModelOutputError, type ModelCallRequest, type ModelCallResult, type ModelPort, type PromptTemplate } from '@multihop/core';
import { z } from 'zod';
import { isJudgedCorrect, judgeCorrectness, type JudgeDecision } from './judge';

const judgePrompt: PromptTemplate<JudgeDecision> = {
  id: 'test-judge',
  role: 'judge',
  version: '1',
  schema: z.object({ explanation: z.string(), decision: z.string().min(1) }),
  reply: {
    instructions: 'Explanation: <why>\nDecision: <yes|no>',
    parse: (text) => {
      const decision = /^decision:(.*)$/im.exec(text)?.[1]?.trim();
      const explanation = /^explanation:(.*)$/im.exec(text)?.[1]?.trim() ?? '';
      return decision ? { ok: true, value: { explanation, decision } } : { ok: false, issues: 'no Decision: line' };
    },
    format: (v) => `Explanation: ${v.explanation}\nDecision: ${v.decision}`,
  },
  render: (vars) => [
    {
      role: 'user',
      content: `Question: ${String(vars['question'])}\nPredicted Answer: ${String(vars['prediction'])}\nGround-Truth Answer: ${String(vars['gold'])}`,
    },
  ],
};

/** Stands in for the network model: replies with scripted texts in order and records each request. */
function scriptedModel(replies: string[]): ModelPort & { requests: ModelCallRequest<unknown>[] } {
  const requests: ModelCallRequest<unknown>[] = [];
  return {
    requests,
    modelFor: () => 'scripted',
    async call<T>(request: ModelCallRequest<T>): Promise<ModelCallResult<T>> {
      requests.push(request as ModelCallRequest<unknown>);
      request.prompt.render(request.vars);
      const text = replies.shift();
      if (text === undefined) throw new Error('no scripted reply left');
      const schema = request.schema ?? request.prompt.schema;
      return {
        output: schema.parse((request.prompt.reply!.parse(text) as { value: unknown }).value),
        text,
        usage: { role: request.role ?? request.prompt.role, model: 'scripted', promptTokens: 50, completionTokens: 12, estimated: false, cached: false, attempts: 1, latencyMs: 3 },
      };
    },
  };
}

describe('judgeCorrectness', () => {
  const input = { question: 'Where is the Eiffel Tower?', prediction: 'It stands in Paris.', gold: 'Paris' };

  it('calls the model port under the judge role with question, prediction and gold', async () => {
    const model = scriptedModel(['Explanation: Paris is named.\nDecision: yes']);
    const signal = new AbortController().signal;
    const verdict = await judgeCorrectness(model, input, { prompt: judgePrompt, signal });
    expect(model.requests).toEqual([{ prompt: judgePrompt, vars: input, role: 'judge', signal }]);
    expect(verdict).toEqual({
      explanation: 'Paris is named.',
      decision: 'yes',
      correct: 1,
      text: 'Explanation: Paris is named.\nDecision: yes',
      usage: expect.objectContaining({ role: 'judge', promptTokens: 50, completionTokens: 12 }),
    });
  });

  it('scores a "no" as 0', async () => {
    const model = scriptedModel(['Explanation: the answer names Lyon.\nDecision: No']);
    const verdict = await judgeCorrectness(model, { ...input, prediction: 'Lyon' }, { prompt: judgePrompt });
    expect(verdict).toMatchObject({ decision: 'No', correct: 0 });
  });

  it('follows PAR² A.2: a decision containing "yes" in any case is correct, anything else is not', async () => {
    const model = scriptedModel(['Explanation: close.\nDecision: Yes, the city matches', 'Explanation: x\nDecision: NO']);
    expect(await judgeCorrectness(model, input, { prompt: judgePrompt })).toMatchObject({ decision: 'Yes, the city matches', correct: 1 });
    expect(await judgeCorrectness(model, input, { prompt: judgePrompt })).toMatchObject({ correct: 0 });
    expect(isJudgedCorrect('no — a yes would need the year')).toBe(true);
    expect(isJudgedCorrect('No.')).toBe(false);
  });

  it('retries a reply without a decision once through the model port, then fails keeping both raw replies', async () => {
    const provider = createScriptedProvider({ replies: { judge: ['I think so.', 'Certainly correct.'] } });
    const failure = await judgeCorrectness(createModel({ provider }), input, { prompt: judgePrompt }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ModelOutputError);
    expect((failure as ModelOutputError).details.raw).toEqual(['I think so.', 'Certainly correct.']);
    expect(provider.requests.map((r) => r.format)).toEqual(['text', 'text']);
  });
});
