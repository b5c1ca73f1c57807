import { goldAnswers, type Question } from '@multihop/core';
import { bootstrapMean, comparePaired, retrievalScores, scoreAnswer } from '@multihop/metrics';

// Two workflows answered the same three questions.
const rows: Array<{ question: Question; a: string; b: string }> = [
  {
    question: { id: 'q1', text: 'In which city is the Eiffel Tower?', answer: 'Paris', aliases: [], supportingIds: ['p1', 'p2'] },
    a: 'Paris',
    b: 'Lyon',
  },
  {
    question: { id: 'q2', text: 'Are the Louvre and the Musée d’Orsay both in Paris?', answer: 'yes', aliases: [], supportingIds: ['p3', 'p4'] },
    a: 'Yes.',
    b: 'no',
  },
  {
    question: { id: 'q3', text: 'Which country did Abraham Lincoln lead?', answer: 'United States', aliases: ['USA'], supportingIds: ['p5', 'p6'] },
    a: 'American',
    b: 'U.S.A.',
  },
];

describe('README example', () => {
  it('scores answers under the official and the lenient normalisation', () => {
    const strict = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question)).em);
    const lenient = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question), { normalization: 'opera-lenient' }).em);
    expect(strict).toEqual([1, 1, 0]);
    expect(lenient).toEqual([1, 1, 1]); // "American" ↔ "United States" by the demonym table
    expect(scoreAnswer('U.S.A.', goldAnswers(rows[2]!.question)).em).toBe(1); // max over aliases: "USA"
  });

  it('scores a ranking of passage ids against the gold passages', () => {
    // The repeated p1 counts once, so the top 2 are p1 and p7.
    expect(retrievalScores(['p1', 'p1', 'p7', 'p2'], rows[0]!.question.supportingIds, 2)).toMatchObject({
      recall: 1,
      fullRecall: 0.5,
      allPass: 0,
    });
  });

  it('compares the workflows with a seeded bootstrap and a paired permutation test', () => {
    const lenient = { normalization: 'opera-lenient' } as const;
    const emA = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question), lenient).em);
    const emB = rows.map(({ question, b }) => scoreAnswer(b, goldAnswers(question), lenient).em);

    const b = bootstrapMean(emB, { seed: 7 });
    expect(b.mean).toBeCloseTo(1 / 3, 12);
    expect(b.lower).toBeLessThanOrEqual(b.mean);
    expect(bootstrapMean(emB, { seed: 7 })).toEqual(b); // same seed, same interval

    const cmp = comparePaired(emA, emB, { seed: 7 });
    expect(cmp.meanDifference).toBeCloseTo(2 / 3, 12);
    // Three questions are too few to tell the workflows apart: exact p = 4 of 8 sign flips.
    expect(cmp.pValue).toBe(0.5);
  });
});
