import { joinSentences, splitSentences } from './splitSentences';

describe('splitSentences', () => {
  it('keeps "U.S." and a middle initial inside their sentence, and splits before a quote', () => {
    // The first two sentences are the first and third of the Clinton Foundation paragraph, a
    // supporting paragraph of a HotpotQA train question (hotpotqa/train-100.json, 5a7bbded554299042af8f7d2).
    expect(
      splitSentences(
        'The Clinton Foundation (founded in 1997 as the William J. Clinton Foundation) is a non-profit organization under section 501(c)(3) of the U.S. tax code. Its offices are located in New York City and Little Rock, Arkansas. "Yes," he said.',
      ),
    ).toEqual([
      'The Clinton Foundation (founded in 1997 as the William J. Clinton Foundation) is a non-profit organization under section 501(c)(3) of the U.S. tax code.',
      'Its offices are located in New York City and Little Rock, Arkansas.',
      '"Yes," he said.',
    ]);
  });

  it('splits prose at sentence ends, keeping initials and abbreviations inside', () => {
    expect(splitSentences('J. R. R. Tolkien was born in 1892.  He wrote books. Dr. Smith met him in St. Louis! Why?')).toEqual([
      'J. R. R. Tolkien was born in 1892.',
      'He wrote books.',
      'Dr. Smith met him in St. Louis!',
      'Why?',
    ]);
  });

  it('keeps a sentence ending in a quote whole', () => {
    expect(splitSentences('It was called "The End." Then it stopped.')).toEqual(['It was called "The End."', 'Then it stopped.']);
  });

  it('joins dataset sentence lists with or without their leading spaces', () => {
    expect(joinSentences(['A b.', ' C d.'])).toBe('A b. C d.');
    expect(joinSentences(['A b.', 'C d.'])).toBe('A b. C d.');
  });
});
