import fc from 'fast-check';
import { extractFinalAnswer, foldUnicodePunctuation, lenientNormalize, mmoaNormalize, normalizeAnswer, squadNormalize } from './normalize';

describe('squadNormalize (official SQuAD/HotpotQA rules)', () => {
  it('lower-cases, deletes punctuation, drops articles and collapses whitespace', () => {
    expect(squadNormalize('  The Quick,   Brown fox! ')).toBe('quick brown fox');
    expect(squadNormalize('An apple a day')).toBe('apple day');
  });

  it('splits on exactly the whitespace Python’s str.split() splits on', () => {
    // Python 3's str.isspace() set; JavaScript's \s lacks U+001C–U+001F and U+0085 and adds U+FEFF.
    const python = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, ...Array.from({ length: 11 }, (_, i) => 0x2000 + i), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
    for (const code of python) expect([code.toString(16), squadNormalize(`paris${String.fromCodePoint(code)}france`)]).toEqual([code.toString(16), 'paris france']);
    expect(squadNormalize('paris\ufefffrance')).toBe('paris\ufefffrance');
    expect(squadNormalize('\u0085 The Louvre\u001f')).toBe('louvre');
  });

  it('deletes punctuation before dropping articles, so joined words stay joined', () => {
    expect(squadNormalize('the-end')).toBe('theend');
    expect(squadNormalize('U.S.A.')).toBe('usa');
  });

  it('drops articles only as whole words, with Unicode-aware word boundaries like Python', () => {
    expect(squadNormalize('Theatre of the Absurd')).toBe('theatre of absurd');
    expect(squadNormalize('ça a été')).toBe('ça été');
  });

  it('leaves non-ASCII punctuation in place, as string.punctuation does', () => {
    expect(squadNormalize('Ireland’s')).toBe('ireland’s');
    expect(squadNormalize('1914–1918')).toBe('1914–1918');
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => squadNormalize(squadNormalize(s)) === squadNormalize(s)));
  });

  it('reads the same text in its two Unicode encodings (a letter and a combining mark, or one letter) as one answer, and changes nothing else', () => {
    expect(squadNormalize('Zu\u0308rich')).toBe(squadNormalize('Zürich'));
    expect(squadNormalize('Zürich')).not.toBe(squadNormalize('Zurich'));
    expect(squadNormalize('１９８０')).toBe('１９８０');
  });
});

describe('mmoaNormalize', () => {
  it('turns punctuation into a space instead of deleting it', () => {
    expect(mmoaNormalize('Jean-Paul Sartre')).toBe('jean paul sartre');
    expect(mmoaNormalize('U.S.A.')).toBe('u s');
  });

  it('folds typographic quotes, dashes and primes to ASCII before splitting on punctuation', () => {
    expect(foldUnicodePunctuation('“Ireland’s” 1914–1918 — 5′ 9″')).toBe('"Ireland\'s" 1914-1918 - 5\' 9"');
    expect(mmoaNormalize('Ireland’s')).toBe(mmoaNormalize("Ireland's"));
    expect(mmoaNormalize('1914–1918')).toBe('1914 1918');
  });

  it('folds compatibility forms and invisible characters: full-width digits, ligatures, a soft hyphen; a zero-width space is a space', () => {
    expect(mmoaNormalize('１９８０')).toBe('1980');
    expect(mmoaNormalize('ﬁnance')).toBe('finance');
    expect(mmoaNormalize('so\u00adft')).toBe('soft');
    expect(mmoaNormalize('New\u200bYork')).toBe('new york');
  });

  it('is what normalizeAnswer uses for the mmoa scheme', () => {
    expect(normalizeAnswer('Jean-Paul', 'mmoa')).toBe('jean paul');
    expect(normalizeAnswer('Jean-Paul')).toBe('jeanpaul');
    expect(normalizeAnswer('Jean-Paul', 'opera-lenient')).toBe('jeanpaul');
  });
});

describe('extractFinalAnswer', () => {
  it('keeps the text after the last "Answer: " of the last paragraph, as the authors\' evaluate_qr_s_g.py does', () => {
    expect(extractFinalAnswer('Step 1 gives Answer: Paris. Checking again... Answer: Lyon')).toBe('Lyon');
    expect(extractFinalAnswer('Answer: Paris\n\nThe capital is Lyon')).toBe('The capital is Lyon');
    expect(extractFinalAnswer('It was built in 1889. The answer is: 1889')).toBe('1889');
    expect(extractFinalAnswer('**Answer:** Paris')).toBe('**Answer:** Paris');
  });

  it('matches the markers as the authors wrote them: case and the trailing space count', () => {
    expect(extractFinalAnswer('Final answer: Lyon')).toBe('Final answer: Lyon');
    expect(extractFinalAnswer('ANSWER: Lyon')).toBe('ANSWER: Lyon');
  });

  it('returns the whole text when there is no marker', () => {
    expect(extractFinalAnswer('Paris')).toBe('Paris');
  });
});

describe('lenientNormalize (opera-lenient)', () => {
  it('folds what mmoa folds before the SQuAD rules, so it is never stricter than mmoa on typography', () => {
    expect(lenientNormalize('Ireland’s')).toBe(lenientNormalize("Ireland's"));
    expect(lenientNormalize('“The Beatles”')).toBe('beatles');
    expect(lenientNormalize('1914–1918')).toBe('19141918');
    expect(lenientNormalize('１９８０')).toBe('1980');
    expect(normalizeAnswer('Ireland’s', 'opera-lenient')).toBe('irelands');
  });
});
