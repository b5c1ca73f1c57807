import { judgeCorrectnessPrompt, parseJudgeReply } from './templates/judge';

describe('the judge prompt (PAR² A.2, Fig. 3)', () => {
  it('asks for Explanation: and Decision: lines instead of JSON', () => {
    const user = judgeCorrectnessPrompt.render({ question: 'Who?', prediction: 'Shirley Temple', gold: 'Shirley Temple Black' }).at(-1)?.content ?? '';
    expect(user).toContain('Predicted answer: Shirley Temple\nGround-truth answer: Shirley Temple Black');
    expect(user).toMatch(/Explanation: <brief reason for the decision>\nDecision: <yes\|no>$/);
    expect(user).not.toContain('JSON');
  });

  it('reads the explanation and the last Decision: line, markdown emphasis removed', () => {
    expect(parseJudgeReply('Explanation: The prediction names Paris,\nwhich is the gold city.\nDecision: YES\n')).toEqual({
      ok: true,
      value: { explanation: 'The prediction names Paris,\nwhich is the gold city.', decision: 'YES' },
    });
    expect(parseJudgeReply('**Explanation:** close enough\n**Decision:** **no**')).toEqual({ ok: true, value: { explanation: 'close enough', decision: 'no' } });
    expect(parseJudgeReply('Decision: no\nOn reflection:\nDecision: yes')).toEqual({ ok: true, value: { explanation: '', decision: 'yes' } });
  });

  it('refuses a reply with no decision, or an empty one, saying what is missing', () => {
    expect(parseJudgeReply('The answer is right.')).toEqual({ ok: false, issues: 'the reply has no "Decision:" line' });
    expect(parseJudgeReply('Explanation: x\nDecision: **')).toMatchObject({ ok: false, issues: expect.stringContaining('empty') });
  });

  it('writes a verdict back in the same form it reads', () => {
    const verdict = { explanation: 'Both name the same person.', decision: 'yes' };
    expect(parseJudgeReply(judgeCorrectnessPrompt.reply!.format(verdict))).toEqual({ ok: true, value: verdict });
  });
});
