import { MultihopError, type ModelCallRequest, type ModelCallResult, type ModelPort, type PromptTemplate } from '@multihop/core';
import { z } from 'zod';
import { JudgeParseError, judgeCorrectness, parseJudgeDecision, type JudgeDecision } from './judge';

const judgePrompt: PromptTemplate<JudgeDecision> = {
  id: 'test-judge',
  role: 'judge',
  version: '1',
  schema: z.object({ explanation: z.string(), decision: z.enum(['yes', 'no']) }),
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
        output: schema.parse(parseJudgeDecision(text)),
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
    expect(verdict).toMatchObject({ decision: 'no', correct: 0 });
  });

  it('lets a malformed reply surface as a MultihopError instead of a silent verdict', async () => {
    const model = scriptedModel(['I think so.']);
    await expect(judgeCorrectness(model, input, { prompt: judgePrompt })).rejects.toBeInstanceOf(JudgeParseError);
  });
});

describe('parseJudgeDecision', () => {
  it('reads the paper’s format, with a multi-line explanation', () => {
    expect(parseJudgeDecision('Explanation: The prediction names Paris,\nwhich is the gold city.\nDecision: YES\n')).toEqual({
      explanation: 'The prediction names Paris,\nwhich is the gold city.',
      decision: 'yes',
    });
  });

  it('accepts markdown emphasis around the labels and values', () => {
    expect(parseJudgeDecision('**Explanation:** close enough\n**Decision:** **no**')).toEqual({ explanation: 'close enough', decision: 'no' });
  });

  it('allows a missing explanation', () => {
    expect(parseJudgeDecision('Decision: no')).toEqual({ explanation: '', decision: 'no' });
  });

  it.each([
    ['no decision line', 'Explanation: fine.'],
    ['two decision lines', 'Decision: yes\nDecision: no'],
    ['a value that only contains yes', 'Explanation: x\nDecision: no, a yes would need the year'],
    ['a placeholder value', 'Explanation: x\nDecision: <yes|no>'],
    ['an empty value', 'Explanation: x\nDecision:'],
  ])('rejects %s', (_, text) => {
    let error: unknown;
    try {
      parseJudgeDecision(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JudgeParseError);
    expect(error).toBeInstanceOf(MultihopError);
    expect(error).toMatchObject({ code: 'JUDGE_PARSE', raw: text });
  });
});
