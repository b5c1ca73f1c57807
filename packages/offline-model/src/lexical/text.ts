/** English function words and question words: they carry no evidence for overlap scoring. */
export const STOPWORDS = new Set(
  (
    'a an the and or but if then than of in on at to for from by with without about into onto over under as is are was were be been being ' +
    'am do does did doing done has have had having it its it\'s this that these those there here he she they them his her hers their theirs him ' +
    'we us our you your i me my mine not no nor so such too very can could should would will shall may might must also just only both either ' +
    'neither each every any all some most more many much few other another same which who whom whose what when where why how whether while ' +
    'during before after since until up down out off again further once one s t'
  ).split(/\s+/),
);

/** Lower-cased alphanumeric tokens, keeping inner apostrophes and hyphens out. */
export function tokens(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[a-z0-9]+/g) ?? [];
}

/**
 * A light suffix stripper: plural and possessive s, -ing, -ed. Enough to let "films" meet
 * "film" and "directed" meet "director"'s stem "direct" without a stemming library.
 */
export function stem(token: string): string {
  if (token.length <= 3 || /^\d/.test(token)) return token;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith('ing') && token.length > 5) return token.slice(0, -3);
  if (token.endsWith('ed') && token.length > 4) return token.slice(0, -2);
  if (token.endsWith('or') && token.length > 5) return token.slice(0, -2);
  if (token.endsWith('er') && token.length > 5) return token.slice(0, -2);
  if (token.endsWith('s') && !token.endsWith('ss') && !token.endsWith('us')) return token.slice(0, -1);
  return token;
}

/** Content terms: tokens without stopwords, stemmed. */
export function terms(text: string): string[] {
  return tokens(text)
    .filter((t) => !STOPWORDS.has(t))
    .map(stem);
}

/**
 * Sentence split on terminal punctuation followed by a capital, digit or quote; keeps
 * initials and common abbreviations ("U.S.", "Dr.", "St.") inside their sentence.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const boundary = /[.!?]["”’)]?\s+(?=["“'(]?[A-Z0-9])/g;
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 4), m.index + 1);
    if (/(?:\b[A-Z]\.|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|No|vs|Inc|Ltd|Co)\.)$/.test(before)) continue;
    out.push(text.slice(start, m.index + m[0].trimEnd().length).trim());
    start = m.index + m[0].length;
  }
  const tail = text.slice(start).trim();
  if (tail) out.push(tail);
  return out.filter((s) => s.length > 0);
}

/** Inverse document frequency over a set of texts, smoothed so unseen terms weigh most. */
export function idfTable(texts: string[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const text of texts) for (const t of new Set(terms(text))) df.set(t, (df.get(t) ?? 0) + 1);
  const n = texts.length;
  return (term) => Math.log(1 + (n + 1) / ((df.get(term) ?? 0) + 0.5));
}
