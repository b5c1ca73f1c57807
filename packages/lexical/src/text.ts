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

/** Invisible format characters (Unicode's Cf: zero-width space and joiners, soft hyphen, BOM, bidi marks) and no-break spaces. */
const INVISIBLE = /[\p{Cf}\u00a0\u2007\u202f]/u;

/**
 * Text as matching should see it: canonically composed (NFC, so "Zu\u0308rich" is "Zürich"), with
 * invisible format characters removed (joiners, soft hyphen, BOM, bidi marks) and no-break and
 * zero-width spaces as spaces (a zero-width space marks a word break, as Unicode's word rules
 * read it). ASCII text is returned as it is.
 */
export function canonicalText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  return withoutInvisibles(text.normalize('NFC'));
}

function withoutInvisibles(text: string): string {
  return INVISIBLE.test(text) ? text.replace(/[\u200b\u00a0\u2007\u202f]/gu, ' ').replace(/\p{Cf}/gu, '') : text;
}

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar): a
 * run of letters in them is a clause, not a word, and is cut into words by ICU's dictionaries.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/**
 * Scripts whose combining marks are part of the letter (vowel signs, voicing): Indic scripts,
 * Sinhala, Thai, Lao, Tibetan, Myanmar, Khmer and Japanese kana. Accents on Latin, Greek and
 * Cyrillic letters and the optional vowel points of Hebrew and Arabic are folded away; these are kept.
 */
const MARKED =
  /[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Thai}\p{Script=Lao}\p{Script=Tibetan}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** A word: a letter or digit, then letters, digits and combining marks (those `foldAccents` keeps). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
let wordSegmenter: Intl.Segmenter | undefined;

/** The words of `text`, with runs of unspaced scripts cut into words (Intl.Segmenter, locale-independent). */
function words(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    if (!UNSPACED.test(word)) {
      out.push(word);
      continue;
    }
    wordSegmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
    for (const piece of wordSegmenter.segment(word)) if (piece.isWordLike) out.push(piece.segment);
  }
  return out;
}

/**
 * Accents folded ("Zürich" → "Zurich", "Αθήνα" → "Αθηνα", "Ё" → "Е", Hebrew and Arabic vowel points
 * dropped) and compatibility forms too (ligatures, full-width digits), with invisible characters
 * removed; the marks of `MARKED` scripts kept ("दिल्ली", "が" ≠ "か"). The result is NFKD, or NFC
 * where marks were kept.
 */
function foldAccents(text: string): string {
  const decomposed = withoutInvisibles(text).normalize('NFKD');
  if (!MARKED.test(decomposed)) return decomposed.replace(/\p{M}/gu, '');
  return decomposed.replace(/(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Hebrew}\p{Script=Arabic}]\p{M}*)\p{M}/gu, '').normalize('NFC');
}

/**
 * Lower-cased, accent-folded word tokens (letters and digits of any script), stop words kept. Text
 * in a script written without spaces is cut into words ("北京是中华人民共和国的首都" → 北京, 是, 中华,
 * 人民, 共和国, 的, 首都).
 */
export function tokens(text: string): string[] {
  // ASCII text is its own NFKD form and has no combining marks, and its letters and digits are
  // [a-z0-9] once lower-cased: the same tokens without the Unicode normalisation and regex (most passages).
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const folded = foldAccents(text).toLowerCase();
  return UNSPACED.test(folded) ? words(folded) : (folded.match(WORD) ?? []);
}

/**
 * Text for a full-text index whose tokenizer splits at spaces and punctuation (LanceDB's): accents
 * and invisible characters folded as `tokens` folds them (NFC), and runs of unspaced scripts cut
 * into words with spaces, so the index and the in-memory ranker see the same words. ASCII text is
 * returned as it is.
 */
export function indexableText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const folded = foldAccents(text).normalize('NFC');
  return UNSPACED.test(folded) ? folded.replace(WORD, (word) => (UNSPACED.test(word) ? words(word).join(' ') : word)) : folded;
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
