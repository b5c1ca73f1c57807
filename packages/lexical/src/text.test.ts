import { idfTable, stem, STOP_WORDS, terms, tokens } from './text';

describe('tokens, stem and terms', () => {
  it('lower-cases and folds accents, keeping letters and digits of any script', () => {
    expect(tokens('Émile Zola’s 1880 novel «Nana»')).toEqual(['emile', 'zola', 's', '1880', 'novel', 'nana']);
  });

  it('gives ASCII text (its own shortcut) the tokens of the Unicode path', () => {
    // One non-ASCII character sends a text down the Unicode path: the ASCII text's tokens must be the same.
    const ascii = ["It's the 1990s' B-52s_remix, v2.0 (NYC)!", 'tab\there\nnew-line ~^`@#$%&*+=|\\/<>?[]{}"', 'ABC xyz 007 a1b2', String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i))];
    for (const text of ascii) expect(tokens(text)).toEqual(tokens(`${text} é`).slice(0, -1));
  });

  it('folds plurals and verb forms to one stem, and leaves agent nouns alone', () => {
    expect(['films', 'film'].map(stem)).toEqual(['film', 'film']);
    expect(['directed', 'directing', 'directs'].map(stem)).toEqual(['direct', 'direct', 'direct']);
    expect(stem('director')).toBe('director');
    expect(stem('countries')).toBe('country');
    expect(stem('agreed')).toBe('agree');
    expect(stem('actress')).toBe('actress');
    expect(stem('1990s')).toBe('1990s');
  });

  it('drops stop words: the same list for the retriever and the offline reader', () => {
    expect(terms('The films were directed by her')).toEqual(['film', 'direct']);
    for (const word of ['the', 'which', 'between', 'whose']) expect(STOP_WORDS.has(word)).toBe(true);
  });

  it('weighs a term found in fewer texts more', () => {
    const idf = idfTable(['Paris is in France', 'Lyon is in France', 'Paris hosted the 1900 Olympics']);
    const [paris, france, olympics] = terms('Paris France Olympics');
    expect(idf(olympics!)).toBeGreaterThan(idf(paris!));
    expect(idf(paris!)).toBe(idf(france!));
    expect(idf('unseen')).toBeGreaterThan(idf(olympics!));
  });
});
