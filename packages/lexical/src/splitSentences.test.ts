import { joinSentences, splitSentences } from './splitSentences';

describe('splitSentences', () => {
  it('keeps "U.S." and a middle initial inside their sentence, and splits before a quote', () => {
    expect(splitSentences('Henry J. Kaiser built ships in the U.S. during the war. He died in 1967. "Yes," he said.')).toEqual([
      'Henry J. Kaiser built ships in the U.S. during the war.',
      'He died in 1967.',
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
