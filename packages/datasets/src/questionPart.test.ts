import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inPart, parsePart, questionPart } from './questionPart';
import { resolveDatasetsDir } from './resolveDatasetsDir';

describe('questionPart', () => {
  // The shared HotpotQA dev file: bridge questions first, comparison questions after (#251 on).
  const rows = readFileSync(join(resolveDatasetsDir(), 'hotpotqa', 'dev-500.ircot.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { question_id: string; question_text: string });
  const secondHalf = rows.slice(250);

  it('splits the questions of a file into parts by id, every question in exactly one part', () => {
    const parts = secondHalf.map((q) => questionPart(q.question_id, 2));
    expect(new Set(parts)).toEqual(new Set([1, 2]));
    const first = secondHalf.filter((q) => inPart(q.question_id, { part: 1, of: 2 }));
    const second = secondHalf.filter((q) => inPart(q.question_id, { part: 2, of: 2 }));
    expect(first.length + second.length).toBe(250);
    expect(first.filter((q) => second.includes(q))).toEqual([]);
    // Roughly even (a binomial(250, 1/2) draw lies in [100, 150] with probability > 0.998).
    expect(first.length).toBeGreaterThan(100);
    expect(first.length).toBeLessThan(150);
    // By id alone, and fixed: a change of the hash would move the questions recorded evals and router files split by.
    expect(['5a8c7595554299585d9e36b6', '5a7d2afd5542995f4f402221', '5a7555215542996c70cfaee1', '5ae12fcf5542990adbacf72c'].map((id) => [questionPart(id, 2), questionPart(id, 3)])).toEqual([[2, 2], [1, 1], [1, 2], [1, 2]]);
  });

  it('keeps the kinds of question of the slice it splits (unlike a split by position)', () => {
    const yesNo = (q: { question_text: string }) => /^(is|are|was|were|do|does|did)\b/i.test(q.question_text);
    const share = (qs: typeof rows) => qs.filter(yesNo).length / qs.length;
    const [a, b] = [1, 2].map((part) => secondHalf.filter((q) => inPart(q.question_id, { part, of: 2 })));
    expect(Math.abs(share(a!) - share(b!))).toBeLessThan(0.15);
    // The split by position this replaces: the file's first half has almost no yes/no questions, its second many.
    expect(share(rows.slice(250)) - share(rows.slice(0, 250))).toBeGreaterThan(0.2);
  });

  it('reads K/N and refuses anything else with the option named', () => {
    expect(parsePart('2/3')).toEqual({ part: 2, of: 3 });
    expect(parsePart(' 1 / 2 ')).toEqual({ part: 1, of: 2 });
    for (const bad of ['0/2', '3/2', '1/1', '1', 'a/b', '1/101', '']) expect(() => parsePart(bad)).toThrow(/--part must be K\/N/);
    expect(() => parsePart('x', 'train --part')).toThrow(/^train --part/);
    expect(inPart('anything', undefined)).toBe(true);
  });
});
