import { extractJson } from './json';

describe('extractJson', () => {
  it('parses bare JSON', () => {
    expect(extractJson('{"answer": "Paris"}')).toEqual({ answer: 'Paris' });
  });

  it('parses JSON inside a ```json fence with prose around it', () => {
    const reply = 'Here is my answer:\n```json\n{"decision": "STOP", "query": ""}\n```\nHope this helps.';
    expect(extractJson(reply)).toEqual({ decision: 'STOP', query: '' });
  });

  it('finds the first balanced object after a preamble, ignoring braces inside strings', () => {
    const reply = 'Sure. {"thought": "a } inside a string", "n": [1, {"x": 2}]} trailing words';
    expect(extractJson(reply)).toEqual({ thought: 'a } inside a string', n: [1, { x: 2 }] });
  });

  it('returns undefined when there is no JSON at all', () => {
    expect(extractJson('The answer is Paris.')).toBeUndefined();
    expect(extractJson('{not json}')).toBeUndefined();
  });
});
