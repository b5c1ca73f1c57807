/**
 * Answer normalisations. Each paper scores answers after its own normalisation, and the
 * numbers are only comparable under the same one, so every answer metric names the scheme
 * it used.
 */
export type NormalizationName = 'squad' | 'mmoa' | 'opera-lenient';

export const NORMALIZATIONS: readonly NormalizationName[] = ['squad', 'mmoa', 'opera-lenient'];

// Python's string.punctuation: the official SQuAD/HotpotQA scripts delete exactly these
// characters and leave every non-ASCII one in place.
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

// Python's `\b` is Unicode-aware and JavaScript's is not; without these lookarounds the "a"
// of "ça" would be dropped here and kept by the official script.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

// Python's `str.split()` (which the official scripts' `' '.join(text.split())` uses) splits on
// what `str.isspace()` calls whitespace. JavaScript's `\s` differs: it lacks U+001C–U+001F and
// U+0085 and has U+FEFF, which Python keeps inside a token. This is Python's set.
const PYTHON_WHITESPACE = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

function collapseWhitespace(text: string): string {
  return text.split(PYTHON_WHITESPACE).filter(Boolean).join(' ');
}

/**
 * The official SQuAD v1.1 / HotpotQA normalisation: lower-case, delete ASCII punctuation,
 * drop the articles a/an/the, collapse whitespace (in that order, so "the-end" → "theend").
 * Non-ASCII text is first put in canonical composed form (NFC), so that "Zu\u0308rich" (a letter
 * and a combining mark) and "Zürich" (one letter), the same text in two encodings, are one answer;
 * the official script compares code points and would call them two. Nothing else differs from it.
 */
export function squadNormalize(text: string): string {
  const lowered = composed(text).toLowerCase();
  const unpunctuated = lowered.replace(ASCII_PUNCTUATION, '');
  return collapseWhitespace(unpunctuated.replace(ARTICLES, ' '));
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Non-ASCII text in canonical composed form (NFC); ASCII text as it is. */
function composed(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFC') : text;
}

/**
 * Compatibility forms folded (NFKC: full-width "１９８０" is "1980", the ligature "ﬁ" is "fi") and
 * invisible format characters removed (soft hyphen, joiners, bidi marks; a zero-width space, which
 * marks a word break, is a space): what a
 * generator's output and a gold answer differ by without differing in content. For the schemes
 * that are not the official SQuAD one.
 */
function compatible(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKC').replace(/\u200b/gu, ' ').replace(/\p{Cf}/gu, '') : text;
}

const UNICODE_FOLDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u2035\u00B4\u02B9\u02BC\uFF07]/gu, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u2036\u00AB\u00BB\u02BA\uFF02]/gu, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/gu, '-'],
  [/\u2026/gu, '...'],
  [/[\u00A0\u2007\u202F]/gu, ' '],
];

/**
 * Folds typographic quotes, primes, dashes, the ellipsis and non-breaking spaces to ASCII.
 * Generators write "Ireland’s" and "1914–1918" where gold answers have "Ireland's" and
 * "1914-1918"; without the fold the SQuAD rules keep "’" inside the token and the two never match.
 */
export function foldUnicodePunctuation(text: string): string {
  let out = text;
  for (const [pattern, ascii] of UNICODE_FOLDS) out = out.replace(pattern, ascii);
  return out;
}

/**
 * The final answer in a generator's reply, as MMOA-RAG's evaluation reads it
 * (`normalize_answer_final` in evaluate_qr_s_g.py of chenyiqun/MMOA-RAG): the last paragraph
 * (text after the last blank line), then the text after its last `Answer: `, then after the last
 * `The answer is: `. The markers are matched as written there, case and trailing space included,
 * so "final answer: X" is not cut; a reply with none of them is returned whole. The authors also
 * delete `*` (their generator answers as `**answer**`); their normalisation turns it into a space
 * anyway, so it is not repeated here.
 */
export function extractFinalAnswer(text: string): string {
  const lastParagraph = text.split('\n\n').at(-1) ?? '';
  const afterAnswer = lastParagraph.split('Answer: ').at(-1) ?? '';
  return afterAnswer.split('The answer is: ').at(-1) ?? '';
}

/**
 * MMOA-RAG's normalisation: Unicode punctuation folded to ASCII, then lower-case, ASCII
 * punctuation replaced by a space (so "Jean-Paul" gives two tokens instead of "jeanpaul"),
 * articles dropped, whitespace collapsed. The "Answer:" extraction is a prediction-side
 * step (see {@link extractFinalAnswer}); this function treats its input as an answer.
 */
export function mmoaNormalize(text: string): string {
  const lowered = foldUnicodePunctuation(compatible(text)).toLowerCase();
  const spaced = lowered.replace(ASCII_PUNCTUATION, ' ');
  return collapseWhitespace(spaced.replace(ARTICLES, ' '));
}

/**
 * OPERA's lenient scheme reads answers as `squad` does after folding what `mmoa` folds too
 * (compatibility forms, invisible characters, typographic quotes and dashes), so it is never
 * stricter than `mmoa` on "Ireland’s" against "Ireland's"; its other leniency lies in how two
 * normalised answers are compared (see `answer.ts`).
 */
export function lenientNormalize(text: string): string {
  return squadNormalize(foldUnicodePunctuation(compatible(text)));
}

/** Normalises an answer string under a named scheme. */
export function normalizeAnswer(text: string, normalization: NormalizationName = 'squad'): string {
  return normalization === 'mmoa' ? mmoaNormalize(text) : normalization === 'opera-lenient' ? lenientNormalize(text) : squadNormalize(text);
}
