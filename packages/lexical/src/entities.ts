import { stem, STOP_WORDS, tokens } from './text';

const CONNECTORS = new Set(['of', 'the', 'de', 'du', 'la', 'le', 'von', 'van', 'der', 'den', 'da', 'di', 'del', 'and', '&', 'for', 'on', 'in', 'upon']);
const LEADING_NOISE = new Set([
  'The', 'A', 'An', 'In', 'On', 'At', 'He', 'She', 'It', 'His', 'Her', 'Its', 'They', 'Their', 'This', 'That', 'These', 'Those',
  'After', 'Before', 'During', 'When', 'While', 'Although', 'However', 'As', 'From', 'By', 'With', 'For', 'Since', 'Despite', 'Both', 'Who', 'What',
  'Which', 'Where', 'Why', 'How', 'Is', 'Are', 'Was', 'Were', 'Did', 'Do', 'Does', 'Has', 'Have', 'Had', 'Can', 'Could', 'Will', 'Would',
]);

/**
 * Capitalised spans: runs of capitalised words, where an ordinal counts as one ("4th Baron
 * Stafford" in hotpotqa-train's 5ae717ec5542995703ce8bd0, "26th Chess Olympiad" in musique-train's
 * 2hop__732691_37939), joined by lower-case connectors such as "of" or "von" ("3rd Earl of Derby",
 * "Géza von Cziffra"). A bare number is not a capitalised word: it ends a span and is left out of
 * it, so digits before or after the words are not included ("the 1920 Summer Olympics" gives "Summer
 * Olympics", "Heinkel HD 23" gives "Heinkel HD": musique-train and hotpotqa-train questions).
 * Leading function words capitalised only by sentence position are dropped.
 */
export function capitalisedSpans(text: string): string[] {
  // Punctuation is kept as its own token so that brackets, commas and dashes end a span
  // ("Ann Bradford Davis (May 3, 1926 – June 1, 2014)", a hotpotqa-train paragraph, must not run into the dates).
  const spans: string[] = [];
  let current: string[] = [];
  const flush = () => {
    while (current.length && CONNECTORS.has(current[current.length - 1]!.toLowerCase())) current.pop();
    while (current.length && LEADING_NOISE.has(current[0]!)) current.shift();
    if (current.length) spans.push(current.join(' ').replace(/[.’']+$/, ''));
    current = [];
  };
  const pieces = text.match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.\-&]*|[()\[\],;:–—"“”«»„!?]/gu) ?? [];
  for (const raw of pieces) {
    if (/^[()\[\],;:–—"“”«»„!?]$/.test(raw)) {
      flush();
      continue;
    }
    const word = raw.replace(/[.]+$/, '');
    const capital = /^[\p{Lu}]/u.test(word) || /^\d+(st|nd|rd|th)$/.test(word);
    if (capital) current.push(word);
    else if (current.length && CONNECTORS.has(word.toLowerCase())) current.push(word);
    else flush();
    if (/\.$/.test(raw) && !/^[A-Z]\.$/.test(raw) && !/^[A-Z][a-z]?\.$/.test(raw)) flush();
  }
  flush();
  return [...new Set(spans.filter((s) => s.length > 1))];
}

/**
 * Titles in straight or curly quotes: HotpotQA questions name films and songs this way
 * ("Wonderland by Night" and "A Man Without Love" in hotpotqa-train's 5a8e40795542995a26add496).
 */
export function quotedTitles(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(QUOTED)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
  return out.filter(Boolean);
}

/** A title in quotes: straight or curly double quotes, guillemets, German „…“, or Japanese 「…」 and 『…』. */
const QUOTED = /["“＂]([^"”＂]{2,80})["”＂]|«\s*([^«»]{2,80}?)\s*»|„([^„“”]{2,80})[“”]|[「『]([^「」『』]{2,80})[」』]/g;

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
const DATE_PATTERNS = [
  new RegExp(`\\b${MONTH}\\s+\\d{1,2},?\\s+\\d{3,4}\\b`, 'g'),
  new RegExp(`\\b\\d{1,2}\\s+${MONTH}\\s+\\d{3,4}\\b`, 'g'),
  new RegExp(`\\b${MONTH}\\s+\\d{3,4}\\b`, 'g'),
  /\b(?:1[0-9]{3}|20[0-9]{2})s?\b/g,
];

/** Dates and years, longest forms first, in text order within each form. */
export function dates(text: string): string[] {
  const found: Array<{ value: string; at: number }> = [];
  const taken: Array<[number, number]> = [];
  for (const pattern of DATE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      taken.push([start, end]);
      found.push({ value: m[0], at: start });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.value);
}

/** The year of a date expression, for comparing "which came first". */
export function yearOf(date: string): number | undefined {
  const m = date.match(/\b(\d{3,4})s?\b(?!.*\b\d{3,4}\b)/);
  return m ? Number(m[1]) : undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
  forty: 40, fifty: 50, hundred: 100, thousand: 1000, million: 1_000_000,
};

/** Numbers written as digits (with thousands separators) or as words, with their values. */
export function numbers(text: string): Array<{ text: string; value: number }> {
  const out: Array<{ text: string; value: number; at: number }> = [];
  for (const m of text.matchAll(/\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\b/g)) {
    out.push({ text: m[0], value: Number(m[0].replace(/,/g, '')), at: m.index ?? 0 });
  }
  for (const m of text.matchAll(/\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand|million)\b/gi)) {
    out.push({ text: m[0], value: NUMBER_WORDS[m[0].toLowerCase()] ?? 0, at: m.index ?? 0 });
  }
  return out.sort((a, b) => a.at - b.at).map(({ text: t, value }) => ({ text: t, value }));
}

/** True when every content term of `span` already occurs in `reference` (a span the question itself names). */
export function coveredBy(span: string, reference: Set<string>): boolean {
  const spanTerms = tokens(span).filter((t) => !STOP_WORDS.has(t)).map(stem);
  return spanTerms.length > 0 && spanTerms.every((t) => reference.has(t));
}
