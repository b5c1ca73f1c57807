// Abbreviations that end in a period without ending a sentence (Wikipedia prose, which all three datasets are).
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'ft', 'vs', 'etc', 'inc', 'ltd', 'co', 'corp',
  'no', 'vol', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'gen', 'col', 'lt', 'sgt', 'capt', 'gov', 'sen', 'rep', 'rev', 'hon', 'u.s', 'u.k', 'e.g', 'i.e', 'approx', 'ca',
]);

/**
 * Splits prose into sentences for layouts that give paragraphs only (IRCoT, MuSiQue, corpus files).
 * HotpotQA and 2Wiki ship their own sentence splits, which the loaders keep as they are, so that
 * sentence-level supporting facts keep their indices.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  // A sentence ends at . ! ? (or the danda, the Arabic question mark) before a space and a capital,
  // a letter of a script without case, or a digit ("Bern. Über …"), or at the ideographic full stop
  // and its kin, which take no space after them ("他住在北京。后来…").
  const re = /[.!?।؟]["'”’»)\]]*\s+(?=["'“‘«„(\[]?[\p{Lu}\p{Lt}\p{Lo}\p{N}])|[。！？]["'”’」』)）]*\s*(?=\S)/gu;
  let start = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    const candidate = text.slice(start, end);
    const lastWord = /([\p{L}.]+)[.!?]["'”’»)\]]*$/u.exec(candidate)?.[1]?.toLowerCase() ?? '';
    // A single capital letter before the period is an initial ("J. R. R. Tolkien"), not a sentence end.
    if (ABBREVIATIONS.has(lastWord) || /^[a-z]$/.test(lastWord)) continue;
    const trimmed = candidate.trim();
    if (trimmed) sentences.push(trimmed);
    start = match.index + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** Joins a dataset's own sentence list into paragraph text (HotpotQA's sentences carry their leading space, 2Wiki's do not). */
export function joinSentences(sentences: string[]): string {
  let text = '';
  for (const s of sentences) {
    if (text && !/\s$/.test(text) && !/^\s/.test(s)) text += ' ';
    text += s;
  }
  return text.trim();
}
