import assert from 'node:assert/strict';
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

// Answers under the official and the lenient normalisation.
const strict = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question)).em);
const lenient = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question), { normalization: 'opera-lenient' }).em);
assert.deepEqual(strict, [1, 1, 0]);
assert.deepEqual(lenient, [1, 1, 1]); // "American" ↔ "United States" by the demonym table
assert.equal(scoreAnswer('U.S.A.', goldAnswers(rows[2]!.question)).em, 1); // max over aliases: "USA"

// A ranking of passage ids against the gold passages: the repeated p1 counts once, so the top 2 are p1 and p7.
const ranking = retrievalScores(['p1', 'p1', 'p7', 'p2'], rows[0]!.question.supportingIds, 2);
assert.equal(ranking.recall, 1);
assert.equal(ranking.fullRecall, 0.5);
assert.equal(ranking.allPass, 0);

// The two workflows compared with a seeded bootstrap and a paired permutation test.
const emA = rows.map(({ question, a }) => scoreAnswer(a, goldAnswers(question), { normalization: 'opera-lenient' }).em);
const emB = rows.map(({ question, b }) => scoreAnswer(b, goldAnswers(question), { normalization: 'opera-lenient' }).em);
const b = bootstrapMean(emB, { seed: 7 });
console.log('workflow b: mean EM', b.mean, 'interval', [b.lower, b.upper]);
assert.ok(Math.abs(b.mean - 1 / 3) < 1e-12);
assert.ok(b.lower <= b.mean);
assert.deepEqual(bootstrapMean(emB, { seed: 7 }), b); // same seed, same interval

const cmp = comparePaired(emA, emB, { seed: 7 });
console.log('a − b:', cmp.meanDifference, 'p =', cmp.pValue);
assert.ok(Math.abs(cmp.meanDifference - 2 / 3) < 1e-12);
assert.equal(cmp.pValue, 0.5); // three questions are too few to tell them apart: exact p = 4 of 8 sign flips
