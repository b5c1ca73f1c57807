import { InputError, goldAnswers } from '@multihop/core';
import fc from 'fast-check';
import { acronymOf, answerAccuracy, exactMatch, f1Score, scoreAnswer } from './answer';
import { NORMALIZATIONS } from './normalize';

describe('squad scheme (agrees with the official HotpotQA evaluation)', () => {
  it('counts a match after normalisation as EM', () => {
    expect(scoreAnswer('The Beatles.', 'Beatles')).toEqual({ em: 1, f1: 1, precision: 1, recall: 1, accuracy: 1 });
  });

  it('computes token F1 with precision and recall over token multisets', () => {
    // pred [barack, obama, jr] vs gold [barack, obama]: 2 common, P = 2/3, R = 1, F1 = 0.8
    const s = scoreAnswer('Barack Obama Jr.', 'Barack Obama');
    expect(s.em).toBe(0);
    expect(s.precision).toBeCloseTo(2 / 3, 12);
    expect(s.recall).toBe(1);
    expect(s.f1).toBeCloseTo(0.8, 12);
    // repeated tokens count once per occurrence in gold: [cat, cat] vs [cat] → P = 1/2, R = 1
    expect(f1Score('the cat the cat', 'cat')).toEqual({ f1: 2 / 3, precision: 0.5, recall: 1 });
  });

  it('gives F1 = 0 when either side is yes/no/noanswer and they differ', () => {
    expect(f1Score('yes', 'no').f1).toBe(0);
    // Without the rule this would be P = 1/3, R = 1, F1 = 0.5.
    expect(f1Score('yes it is', 'yes').f1).toBe(0);
    expect(f1Score('no', 'no man’s land').f1).toBe(0);
    expect(f1Score('noanswer', 'noanswer given').f1).toBe(0);
    expect(scoreAnswer('Yes.', 'yes')).toMatchObject({ em: 1, f1: 1 });
  });

  it('takes the maximum over gold aliases, with precision and recall of the best-F1 alias', () => {
    expect(scoreAnswer('NYC', ['New York City', 'NYC'])).toMatchObject({ em: 1, f1: 1 });
    const s = scoreAnswer('New York', ['NY', 'New York City']);
    expect(s.em).toBe(0);
    expect(s.f1).toBeCloseTo(0.8, 12);
    expect(s.precision).toBe(1);
    expect(s.recall).toBeCloseTo(2 / 3, 12);
    expect(exactMatch('Paris', goldAnswers({ answer: 'Paris, France', aliases: ['Paris'] }))).toBe(1);
  });

  it('scores accuracy as the normalised gold found in the prediction as whole tokens', () => {
    expect(answerAccuracy('It was the Eiffel Tower, built 1889', 'Eiffel Tower')).toBe(1);
    expect(answerAccuracy('Eiffel', 'Eiffel Tower')).toBe(0);
    // Whole tokens only: "no" inside "north" is not the answer "no".
    expect(answerAccuracy('north', 'no')).toBe(0);
  });

  it('does not extract the text after "Answer:"', () => {
    expect(scoreAnswer('Answer: Paris', 'Paris')).toMatchObject({ em: 0, accuracy: 1 });
  });

  it('refuses an empty gold list', () => {
    expect(() => scoreAnswer('x', [])).toThrow(InputError);
  });
});

describe('mmoa scheme', () => {
  const mmoa = { normalization: 'mmoa' } as const;

  it('scores only the text after the last "Answer:"', () => {
    expect(scoreAnswer('The tower is in Paris. Answer: no. Answer: The Eiffel Tower', 'Eiffel Tower', mmoa).em).toBe(1);
    expect(scoreAnswer('Eiffel Tower', 'Eiffel Tower', mmoa).em).toBe(1);
  });

  it('matches answers that differ only in typographic punctuation, where squad does not', () => {
    expect(exactMatch('Ireland’s', "Ireland's", mmoa)).toBe(1);
    expect(exactMatch('Ireland’s', "Ireland's")).toBe(0);
    expect(exactMatch('1914–1918', '1914-1918', mmoa)).toBe(1);
    expect(exactMatch('Jean-Paul Sartre', 'Jean Paul Sartre', mmoa)).toBe(1);
    expect(exactMatch('Jean-Paul Sartre', 'Jean Paul Sartre')).toBe(0);
  });

  it('keeps the yes/no F1 rule, and scores accuracy 0 on a yes/no mismatch as the authors\' compute_scores does', () => {
    expect(f1Score('Answer: yes it is', 'yes', mmoa).f1).toBe(0);
    expect(scoreAnswer('Answer: yes it is', 'yes', mmoa).accuracy).toBe(0);
    expect(scoreAnswer('Answer: yes it is', 'yes').accuracy).toBe(1);
  });

  it('reads "The answer is: " and the last paragraph, and nothing after a lower-case "answer:"', () => {
    expect(scoreAnswer('Paris is in France.\n\nThe answer is: Paris', 'Paris', mmoa).em).toBe(1);
    expect(scoreAnswer('The final answer: Paris', 'Paris', mmoa).em).toBe(0);
  });
});

describe('opera-lenient scheme', () => {
  const lenient = { normalization: 'opera-lenient' } as const;

  it('treats a demonym and its country as equal', () => {
    expect(scoreAnswer('French', 'France', lenient)).toEqual({ em: 1, f1: 1, precision: 1, recall: 1, accuracy: 1 });
    expect(exactMatch('South African', 'South Africa', lenient)).toBe(1);
    expect(exactMatch('France', 'French', lenient)).toBe(1);
    expect(exactMatch('French', 'France')).toBe(0);
  });

  it('is never stricter than mmoa on typography or encodings: curly quotes, dashes, full-width digits, decomposed letters', () => {
    for (const [p, g] of [['Ireland’s', "Ireland's"], ['“The Beatles”', 'The Beatles'], ['1914–1918', '1914-1918'], ['１９８０', '1980'], ['Zu\u0308rich', 'Zürich']]) {
      expect([p, exactMatch(p!, g!, lenient), exactMatch(p!, g!, { normalization: 'mmoa' })]).toEqual([p, 1, 1]);
    }
  });

  it('uses the demonym table for partial F1 too', () => {
    // [united, states, president, lincoln] vs [president, of, united, states]: 3 common → P = R = 3/4.
    // Under squad only "president" is shared: F1 = 2/7.
    expect(f1Score('American president Lincoln', 'president of United States').f1).toBeCloseTo(2 / 7, 12);
    expect(f1Score('American president Lincoln', 'president of United States', lenient).f1).toBeCloseTo(0.75, 12);
  });

  it('treats an acronym as the initials of the other side’s capitalised words', () => {
    expect(exactMatch('USA', 'United States of America', lenient)).toBe(1);
    expect(exactMatch('Federal Bureau of Investigation', 'F.B.I.', lenient)).toBe(1);
    expect(exactMatch('the UN', 'The United Nations', lenient)).toBe(1);
    expect(exactMatch('usa', 'united states of america', lenient)).toBe(0);
    expect(acronymOf('Massachusetts Institute of Technology')).toBe('mit');
    expect(acronymOf('Paris')).toBeUndefined();
  });

  it('counts a contiguous sub-span in either direction as EM, with F1 = 1, when it names the same thing', () => {
    expect(scoreAnswer('President Barack Obama', 'Barack Obama', lenient)).toEqual({ em: 1, f1: 1, precision: 1, recall: 1, accuracy: 1 });
    // The prediction inside the gold is EM, but the gold is not contained in the prediction.
    expect(scoreAnswer('Barack Obama', 'President Barack Obama', lenient)).toEqual({ em: 1, f1: 1, precision: 1, recall: 1, accuracy: 0 });
    expect(exactMatch('in June 1998', '1998', lenient)).toBe(1);
    expect(exactMatch('Gatwick', 'Gatwick Airport', lenient)).toBe(1);
    expect(exactMatch('Springfield', 'Springfield, Illinois', lenient)).toBe(1);
    const gap = scoreAnswer('Barack H. Obama', 'Barack Obama', lenient);
    expect(gap.em).toBe(0);
    expect(gap.f1).toBeCloseTo(0.8, 12);
  });

  it('does not count a lone word of a longer name, a short fragment or one item of a list', () => {
    // Each of these was EM = F1 = 1 while any contained span counted.
    expect(scoreAnswer('of', 'Bank of America', lenient).em).toBe(0);
    expect(scoreAnswer('Jr.', 'Martin Luther King Jr.', lenient).em).toBe(0);
    expect(scoreAnswer('Obama', 'Barack Obama', lenient).em).toBe(0);
    const listed = scoreAnswer('Paris, London, Berlin, Rome, Madrid', 'Rome', lenient);
    expect(listed).toMatchObject({ em: 0, accuracy: 1 });
    expect(listed.f1).toBeCloseTo(1 / 3, 12);
    // Two short tokens are a fragment too ("St. Jo" in "St. Jo Hospital"): under five characters.
    expect(exactMatch('St Jo', 'St Jo Hospital', lenient)).toBe(0);
  });

  it('keeps yes/no exact, so "yes" inside a longer answer earns nothing', () => {
    expect(scoreAnswer('yes he was', 'yes', lenient)).toMatchObject({ em: 0, f1: 0 });
    expect(scoreAnswer('no', 'no man’s land', lenient)).toMatchObject({ em: 0, f1: 0 });
  });
});

describe('answer metric properties', () => {
  const text = fc.oneof(
    fc.string(),
    fc.array(fc.constantFrom('the', 'a', 'Paris', 'French', 'France', 'yes', 'no', 'United', 'States', 'U.S.', 'Answer:', '–', 'x'), { maxLength: 6 }).map((w) => w.join(' ')),
  );
  const normalization = fc.constantFrom(...NORMALIZATIONS);

  it('keeps every score in [0, 1]', () => {
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), normalization, (p, g, n) =>
        Object.values(scoreAnswer(p, g, { normalization: n })).every((v) => v >= 0 && v <= 1),
      ),
    );
  });

  it('gives F1 = 1 whenever the lenient EM is 1', () => {
    fc.assert(
      fc.property(text, text, (p, g) => {
        const s = scoreAnswer(p, g, { normalization: 'opera-lenient' });
        return s.em === 0 || s.f1 === 1;
      }),
    );
  });

  it('never scores the lenient scheme below squad', () => {
    fc.assert(
      fc.property(text, text, (p, g) => {
        const strict = scoreAnswer(p, g);
        const lenient = scoreAnswer(p, g, { normalization: 'opera-lenient' });
        return lenient.em >= strict.em && lenient.f1 >= strict.f1 && lenient.accuracy >= strict.accuracy;
      }),
    );
  });

  it('makes squad F1 symmetric, with precision and recall swapped', () => {
    fc.assert(
      fc.property(text, text, (p, g) => {
        const a = f1Score(p, g);
        const b = f1Score(g, p);
        return a.f1 === b.f1 && a.precision === b.recall && a.recall === b.precision;
      }),
    );
  });
});
