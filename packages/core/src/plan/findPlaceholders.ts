/**
 * A reference, inside a sub-goal's text, to the answer of another step.
 * `start`/`end` are offsets into the text (end exclusive), so `text.slice(start, end) === raw`.
 */
export interface Placeholder {
  raw: string;
  /** The id of the step named, normalised (`step 01` and `step one` both give `"1"`). */
  stepRef: string;
  start: number;
  end: number;
  /** `bracket`: OPERA's `[entity from step 1]`; `hash`: the `#1` of Break/MuSiQue decompositions. */
  form: 'bracket' | 'hash';
}

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];

// No newline and no nested bracket inside: a placeholder is a short phrase, and refusing to
// span lines keeps a stray "[" in a question from swallowing the rest of the plan.
const BRACKET = /\[([^[\]\n]*)\]/g;
// Small models write "step one" or "the first step" as often as "step 1"; all name the same step.
const STEP_IN_BRACKET = new RegExp(
  String.raw`\bsteps?\s*(?:#\s*)?(\d+|${NUMBER_WORDS.join('|')})\b` +
    String.raw`|\b(${ORDINAL_WORDS.join('|')})\s+step\b` +
    String.raw`|(?<![\w#&])#(\d+)(?!\w)`,
  'i',
);
// Not after a word character, "#" or "&": keeps "C#1", "##1" and HTML entities like "&#39;" out.
const HASH = /(?<![\w#&])#(\d+)(?!\w)/g;

/**
 * Every placeholder in `text`, in order of appearance.
 *
 * A bracket counts when its words name a step (`[entity from step 1]`, `[answer to Step 2]`,
 * `[the year of step #3]`, `[director from the first step]`, `[#1]`); other brackets (`[1]`
 * citations, markdown links) are left alone. A bracket naming several steps refers to the
 * first one named, since one placeholder is replaced by one answer. Outside brackets, `#N`
 * refers to step N.
 */
export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const match of text.matchAll(BRACKET)) {
    const inner = match[1] ?? '';
    const step = STEP_IN_BRACKET.exec(inner);
    if (!step) continue;
    const ref = step[1] ?? step[3];
    const stepRef = ref !== undefined ? normaliseRef(ref) : ordinalRef(step[2] ?? '');
    found.push({ raw: match[0], stepRef, start: match.index, end: match.index + match[0].length, form: 'bracket' });
  }
  const insideBracket = (at: number) => found.some((p) => p.start <= at && at < p.end);
  const hashes: Placeholder[] = [];
  for (const match of text.matchAll(HASH)) {
    if (insideBracket(match.index)) continue;
    hashes.push({
      raw: match[0],
      stepRef: normaliseRef(match[1] ?? ''),
      start: match.index,
      end: match.index + match[0].length,
      form: 'hash',
    });
  }
  return [...found, ...hashes].sort((a, b) => a.start - b.start);
}

function normaliseRef(ref: string): string {
  const word = NUMBER_WORDS.indexOf(ref.toLowerCase());
  if (word >= 0) return String(word + 1);
  return ref.replace(/^0+(?=\d)/, '');
}

function ordinalRef(ordinal: string): string {
  return String(ORDINAL_WORDS.indexOf(ordinal.toLowerCase()) + 1);
}
