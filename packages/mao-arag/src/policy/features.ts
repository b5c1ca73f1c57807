import { capitalisedSpans, decomposeQuestion, quotedTitles, tokens } from '@multihop/lexical';
import type { PlanLevel } from '../workflowSpace';

/**
 * The planner policy's view of a question: numeric features of its wording alone (mao-arag.md
 * leaves the planner an LLM reading the question; a policy small enough to train here reads
 * these instead). Each is in [0, 1]. The names are recorded in the policy file, so a file
 * trained on one feature set is refused by another (`FEATURE_SPEC_VERSION`).
 */
export const FEATURE_NAMES = [
  'bias',
  'sub-question turn',
  'length (words / 40)',
  'named entities (/ 4)',
  'quoted titles',
  'comparison cue (or / both / same / -er than / first)',
  'yes-no question',
  'bridge cue (hops from decomposeQuestion, / 3)',
  'possessive',
  '"of" relation',
  'relative clause (who / that / which / where inside)',
  'wh: who',
  'wh: when / what year',
  'wh: where',
  'wh: how many / how much / how old',
  'wh: what / which',
  'digits in the question',
] as const;

export const FEATURE_SPEC_VERSION = 1;

const COMPARISON = /\b(or|both|same|either|neither|compared?|earlier|later|older|younger|first|last|more|less|larger|smaller|longer|shorter|higher|lower)\b|\w+er than\b/i;
const YES_NO = /^(is|are|was|were|do|does|did|can|could|has|have|had|will|would)\b/i;
const RELATIVE = /\s(who|whom|whose|that|which|where)\s/i;

/** The feature vector of `question` on a turn of `level`, in FEATURE_NAMES order. */
export function questionFeatures(question: string, level: PlanLevel): number[] {
  const q = question.trim();
  const words = tokens(q);
  const lower = q.toLowerCase();
  const first = words[0] ?? '';
  const entities = new Set([...quotedTitles(q), ...capitalisedSpans(q)]);
  const hops = decomposeQuestion(q).length;
  const wh = (pattern: RegExp) => (pattern.test(lower) ? 1 : 0);
  return [
    1,
    level === 'sub' ? 1 : 0,
    Math.min(1, words.length / 40),
    Math.min(1, entities.size / 4),
    quotedTitles(q).length > 0 ? 1 : 0,
    COMPARISON.test(q) ? 1 : 0,
    YES_NO.test(q) ? 1 : 0,
    Math.min(1, (hops - 1) / 3),
    /['’]s\b/.test(q) ? 1 : 0,
    / of (the |a |an )?/i.test(q) ? 1 : 0,
    RELATIVE.test(q.slice(first.length + 1)) ? 1 : 0,
    wh(/\b(who|whom|whose)\b/),
    wh(/\b(when|what year|which year|what date)\b/),
    wh(/\bwhere\b/),
    wh(/\bhow (many|much|old|long)\b/),
    wh(/\b(what|which)\b/),
    /\d/.test(q) ? 1 : 0,
  ];
}
