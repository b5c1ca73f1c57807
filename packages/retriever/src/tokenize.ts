// English stop words, the same role as LanceDB's `removeStopWords` in the FTS index.
const STOP_WORDS = new Set(
  ('a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves also s t')
    .split(' '),
);

/**
 * A light suffix stemmer: enough to fold plural, -ing, -ed and -ly variants together for the
 * hashing embedder and the lexical reranker, without pulling in a Snowball dependency.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  const rules: Array<[RegExp, string]> = [
    [/ies$/, 'y'],
    [/sses$/, 'ss'],
    [/([^su])s$/, '$1'],
    [/eed$/, 'ee'],
    [/([aeiou].*)(ed|ing)$/, '$1'],
    [/([aeiou].*)ly$/, '$1'],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(word)) {
      const out = word.replace(pattern, replacement);
      if (out.length >= 3) return out;
    }
  }
  return word;
}

/** Lower-cased, accent-folded, stop-word-free, stemmed word tokens. */
export function tokenize(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return [];
  const out: string[] = [];
  for (const w of words) if (!STOP_WORDS.has(w)) out.push(stem(w));
  return out;
}
