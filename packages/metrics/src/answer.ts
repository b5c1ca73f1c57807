import { InputError } from '@multihop/core';
import { COUNTRY_DEMONYMS, demonymsToCountries } from './demonyms';
import { extractFinalAnswer, lenientNormalize, mmoaNormalize, squadNormalize, type NormalizationName } from './normalize';

/** Scores of one prediction against its gold answer(s); every field is in [0, 1]. */
export interface AnswerScore {
  /** 1 when the normalised prediction equals a normalised gold answer (lenient: see `opera-lenient`). */
  em: number;
  f1: number;
  precision: number;
  recall: number;
  /** 1 when a normalised gold answer occurs in the normalised prediction as whole tokens. */
  accuracy: number;
}

export interface AnswerMetricOptions {
  /** Defaults to `squad`, the official HotpotQA/SQuAD normalisation. */
  normalization?: NormalizationName;
}

/** One gold answer, or the answer and its aliases (see `goldAnswers` in @multihop/core). */
export type GoldAnswers = string | readonly string[];

interface Overlap {
  f1: number;
  precision: number;
  recall: number;
}

const NO_OVERLAP: Overlap = { f1: 0, precision: 0, recall: 0 };
const FULL_OVERLAP: Overlap = { f1: 1, precision: 1, recall: 1 };

// HotpotQA's evaluation gives F1 = 0 when either side normalises to one of these and the two
// differ: "no" must not earn partial credit against "no, it was not" or against "yes".
const CLOSED_ANSWERS = new Set(['yes', 'no', 'noanswer']);

function tokensOf(normalized: string): string[] {
  return normalized === '' ? [] : normalized.split(' ');
}

function tokenOverlap(prediction: readonly string[], gold: readonly string[]): Overlap {
  const remaining = new Map<string, number>();
  for (const token of gold) remaining.set(token, (remaining.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of prediction) {
    const left = remaining.get(token) ?? 0;
    if (left > 0) {
      same += 1;
      remaining.set(token, left - 1);
    }
  }
  if (same === 0) return NO_OVERLAP;
  const precision = same / prediction.length;
  const recall = same / gold.length;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

/** True when `needle` occurs in `haystack` as a contiguous run of whole tokens. */
function isSubspan(needle: readonly string[], haystack: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((token, j) => haystack[start + j] === token)) return true;
  }
  return false;
}

function isClosedMismatch(prediction: string, gold: string): boolean {
  return prediction !== gold && (CLOSED_ANSWERS.has(prediction) || CLOSED_ANSWERS.has(gold));
}

function strictScore(prediction: string, gold: string): AnswerScore {
  const predTokens = tokensOf(prediction);
  const goldTokens = tokensOf(gold);
  const overlap = isClosedMismatch(prediction, gold) ? NO_OVERLAP : tokenOverlap(predTokens, goldTokens);
  return {
    em: prediction === gold ? 1 : 0,
    ...overlap,
    accuracy: isSubspan(goldTokens, predTokens) ? 1 : 0,
  };
}

/**
 * Initials of the capitalised words, lower-cased ("United States of America" → "usa"), or
 * undefined when fewer than two words are capitalised: one initial matches far too much.
 * Articles are skipped because the normalised other side has lost them too.
 */
export function acronymOf(raw: string): string | undefined {
  const initials = raw
    .split(/[\s\-\u2010-\u2015]+/u)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+/u, ''))
    .filter((word) => !/^(?:a|an|the)$/iu.test(word))
    .filter((word) => /^\p{Lu}/u.test(word))
    .map((word) => word.charAt(0).toLowerCase());
  return initials.length >= 2 ? initials.join('') : undefined;
}

function isAcronymOf(raw: string, normalizedOther: string): boolean {
  const acronym = acronymOf(raw);
  return acronym !== undefined && acronym === normalizedOther.replace(/ /g, '');
}

// Nouns that name what kind of thing a name is: "Gatwick" names "Gatwick Airport".
const KIND_NOUNS = new Set(['airport', 'castle', 'county', 'district', 'province', 'river', 'university', 'college', 'city', 'film', 'comics', 'island', 'lake', 'station']);
// Places that follow a name ("Springfield Illinois", "Perth Australia"): one-word countries and US states.
const PLACE_NOUNS = new Set([
  ...COUNTRY_DEMONYMS.map((c) => c.country).filter((c) => !c.includes(' ')),
  ...('alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas ' +
    'kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada hampshire jersey york ' +
    'carolina dakota ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming').split(' '),
]);

/**
 * Whether the shorter answer, found as a contiguous token span of the longer, names the same thing
 * (the check OPERA's evaluation makes before it counts containment as a match): two or more tokens
 * with at least five characters in all ("Barack Obama" in "President Barack Obama"); one token with
 * a digit ("1998" in "June 1998"); or one token of four or more characters that the longer answer's
 * two tokens begin, followed by a kind or a place ("Gatwick" and "Gatwick Airport"). Not a lone
 * word of a longer name ("of", "Obama" in "Barack Obama") or one item of a list.
 */
function namesTheSame(shorter: readonly string[], longer: readonly string[]): boolean {
  if (!isSubspan(shorter, longer)) return false;
  if (shorter.length === longer.length) return true;
  if (shorter.length >= 2) return shorter.join('').length >= 5;
  const token = shorter[0]!;
  if (/\d/.test(token)) return true;
  return longer.length === 2 && longer[0] === token && token.length >= 4 && (KIND_NOUNS.has(longer[1]!) || PLACE_NOUNS.has(longer[1]!));
}

/**
 * OPERA-style lenient comparison on top of the SQuAD normalisation: a demonym equals its
 * country, an acronym equals the initials of the other side's capitalised words, and one side
 * found as a contiguous token span of the other counts as an exact match when the span names the
 * same thing (`namesTheSame`), which then also gives F1 = 1. The lenient score is never below the
 * strict one.
 */
function lenientScore(rawPrediction: string, rawGold: string): AnswerScore {
  // Folding can only add matches, except where it empties an answer ("–" folds to "-", which the
  // SQuAD rules delete): the official reading's score is the floor.
  const folded = foldedLenientScore(rawPrediction, rawGold);
  const official = strictScore(squadNormalize(rawPrediction), squadNormalize(rawGold));
  const overlap = official.f1 > folded.f1 ? official : folded;
  return { em: Math.max(folded.em, official.em), f1: overlap.f1, precision: overlap.precision, recall: overlap.recall, accuracy: Math.max(folded.accuracy, official.accuracy) };
}

function foldedLenientScore(rawPrediction: string, rawGold: string): AnswerScore {
  const prediction = lenientNormalize(rawPrediction);
  const gold = lenientNormalize(rawGold);
  const strict = strictScore(prediction, gold);
  // A yes/no inside a longer answer is as likely a negation as an agreement: closed answers
  // keep HotpotQA's exact rule under every scheme.
  if (CLOSED_ANSWERS.has(prediction) || CLOSED_ANSWERS.has(gold)) return strict;

  const predCountries = demonymsToCountries(tokensOf(prediction));
  const goldCountries = demonymsToCountries(tokensOf(gold));
  const acronymMatch = isAcronymOf(rawPrediction, gold) || isAcronymOf(rawGold, prediction);
  const goldInPrediction = isSubspan(goldCountries, predCountries);
  const accuracy = strict.accuracy === 1 || goldInPrediction || acronymMatch ? 1 : 0;
  const [shorter, longer] = predCountries.length <= goldCountries.length ? [predCountries, goldCountries] : [goldCountries, predCountries];
  if (strict.em === 1 || namesTheSame(shorter, longer) || acronymMatch) {
    return { em: 1, ...FULL_OVERLAP, accuracy };
  }
  const countryOverlap = tokenOverlap(predCountries, goldCountries);
  const { f1, precision, recall } = countryOverlap.f1 > strict.f1 ? countryOverlap : strict;
  return { em: 0, f1, precision, recall, accuracy };
}

function scoreOne(prediction: string, gold: string, normalization: NormalizationName): AnswerScore {
  switch (normalization) {
    case 'squad':
      return strictScore(squadNormalize(prediction), squadNormalize(gold));
    case 'mmoa': {
      // MMOA-RAG's compute_scores reads both sides through its final-answer extraction, and a
      // yes/no/noanswer mismatch scores 0 on every measure, accuracy included.
      const p = mmoaNormalize(extractFinalAnswer(prediction));
      const g = mmoaNormalize(extractFinalAnswer(gold));
      const score = strictScore(p, g);
      return isClosedMismatch(p, g) ? { ...score, accuracy: 0 } : score;
    }
    case 'opera-lenient':
      return lenientScore(prediction, gold);
  }
}

function goldList(gold: GoldAnswers): readonly string[] {
  const list = typeof gold === 'string' ? [gold] : gold;
  if (list.length === 0) throw new InputError('answer metrics need at least one gold answer', { field: 'gold' });
  return list;
}

/**
 * EM, F1 (with its precision and recall) and accuracy of a prediction, each the maximum over
 * the gold answers as in the SQuAD/MuSiQue evaluations; precision and recall come from the
 * gold answer with the best F1 (the first one on ties).
 */
export function scoreAnswer(prediction: string, gold: GoldAnswers, options: AnswerMetricOptions = {}): AnswerScore {
  const normalization = options.normalization ?? 'squad';
  const scores = goldList(gold).map((g) => scoreOne(prediction, g, normalization));
  const bestF1 = scores.reduce((best, s) => (s.f1 > best.f1 ? s : best));
  return {
    em: Math.max(...scores.map((s) => s.em)),
    f1: bestF1.f1,
    precision: bestF1.precision,
    recall: bestF1.recall,
    accuracy: Math.max(...scores.map((s) => s.accuracy)),
  };
}

export function exactMatch(prediction: string, gold: GoldAnswers, options?: AnswerMetricOptions): number {
  return scoreAnswer(prediction, gold, options).em;
}

export function f1Score(prediction: string, gold: GoldAnswers, options?: AnswerMetricOptions): { f1: number; precision: number; recall: number } {
  const { f1, precision, recall } = scoreAnswer(prediction, gold, options);
  return { f1, precision, recall };
}

export function answerAccuracy(prediction: string, gold: GoldAnswers, options?: AnswerMetricOptions): number {
  return scoreAnswer(prediction, gold, options).accuracy;
}
