/**
 * English function words and question words: they carry no evidence for overlap scoring or
 * hashing. One list for the workspace (the retriever's reranker and embedder, the offline
 * reader), close to what LanceDB's `removeStopWords` drops in the full-text index.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and another any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either every few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it it\'s its itself just many may me might mine more most much must my myself neither no nor not of off ' +
    'on once one only onto or other our ours ourselves out over own same shall she should since so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up us very was we were what when where whether which while who ' +
    'whom whose why will with without would you your yours yourself yourselves s t'
  ).split(/\s+/),
);

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Lower-cased, accent-folded word tokens (letters and digits of any script), stop words kept. */
export function tokens(text: string): string[] {
  // ASCII text is its own NFKD form and has no combining marks, and its letters and digits are
  // [a-z0-9] once lower-cased: the same tokens without the Unicode normalisation and regex (most passages).
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A light suffix stemmer, the workspace's only one: plural and possessive s, -ies, -sses, -ing,
 * -eed, -ed and -ly, so that "films" meets "film" and "directed" meets "directing". Agent nouns
 * (-er/-or) are left alone: folding them lowered the hashing embedder's open-setting recall
 * (all gold in the top 10 on the conformance suite's HotpotQA dev questions: 0.58 with, 0.64
 * without) and changed no offline answer's EM on the HotpotQA and MuSiQue development questions.
 * No stemming library: this is for overlap, not for linguistics.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('eed')) return word.slice(0, -1);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('ly') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Content terms: tokens without stop words, stemmed (what overlap scores and the hashing embedder compare). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokens(text)) if (!STOP_WORDS.has(token)) out.push(stem(token));
  return out;
}

/** Inverse document frequency over a set of texts, smoothed so unseen terms weigh most. */
export function idfTable(texts: readonly string[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const text of texts) for (const t of new Set(terms(text))) df.set(t, (df.get(t) ?? 0) + 1);
  const n = texts.length;
  return (term) => Math.log(1 + (n + 1) / ((df.get(term) ?? 0) + 0.5));
}
