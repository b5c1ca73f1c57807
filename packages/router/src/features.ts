import nlp from 'compromise';
import { capitalisedSpans, decomposeQuestion, quotedTitles, tokens } from '@multihop/lexical';

/**
 * What the router reads of a question before any model call: its wording only, as numbers.
 * Structural features come from compromise (a maintained rule-based NLP library: part-of-speech
 * tags and named-entity classes, no model weights), lexical ones from @multihop/lexical (the
 * same tokeniser, title and entity spotting and question decomposition the methods use). The
 * names and this version are recorded in every router file: a file trained on another feature
 * set is refused, not misread.
 */
export const FEATURE_NAMES = [
  'words (/ 30)',
  'named spans (capitalised or quoted, / 4)',
  'quoted titles',
  'people (compromise #Person, / 2)',
  'places (#Place, / 2)',
  'organisations (#Organization, / 2)',
  'dates or years (#Date / 4-digit number)',
  'numbers (#Value)',
  'nouns (/ 6)',
  'verbs (/ 3)',
  'prepositions (/ 4)',
  'adjectives (/ 3)',
  'comparatives or superlatives',
  'possessives',
  'comparison cue (or / both / same / -er than / first / last)',
  'yes-no question (starts with an auxiliary)',
  'either-or (two named options joined by "or")',
  'hops from decomposeQuestion (/ 3)',
  '"of" phrases (/ 3)',
  'relative clause (who / that / which / where inside)',
  'wh: who',
  'wh: when / what year',
  'wh: where',
  'wh: how many / how much / how old',
  'wh: which',
  'wh: what',
  'kinship or role noun (father, director, spouse, ...)',
] as const;

export const FEATURE_SPEC_VERSION = 1;

const COMPARISON = /\b(or|both|same|either|neither|compared?|earlier|later|older|younger|first|last|more|less|larger|smaller|longer|shorter|higher|lower)\b|\w+er than\b/i;
const YES_NO = /^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b/i;
const RELATIVE = /\s(who|whom|whose|that|which|where)\s/i;
const ROLE = /\b(father|mother|son|daughter|wife|husband|spouse|brother|sister|child|parent|grandfather|grandmother|uncle|aunt|director|composer|performer|producer|author|writer|founder|creator|president|owner|member|coach|player|singer|actor|actress)\b/i;

const clip = (x: number): number => Math.min(1, Math.max(0, x));

/** The feature vector of a question, in FEATURE_NAMES order; each in [0, 1]. */
export function questionFeatures(question: string): number[] {
  const q = question.trim().replace(/\s+/g, ' ');
  const lower = q.toLowerCase();
  const words = tokens(q);
  const titles = quotedTitles(q);
  const spans = new Set([...titles, ...capitalisedSpans(q)]);
  const doc = nlp(q);
  const count = (tag: string) => doc.match(tag).length;
  const wh = (pattern: RegExp) => (pattern.test(lower) ? 1 : 0);
  return [
    clip(words.length / 30),
    clip(spans.size / 4),
    titles.length > 0 ? 1 : 0,
    clip(doc.people().length / 2),
    clip(doc.places().length / 2),
    clip(doc.organizations().length / 2),
    count('#Date') > 0 || /\b1\d{3}\b|\b20\d{2}\b/.test(q) ? 1 : 0,
    count('#Value') > 0 ? 1 : 0,
    clip(doc.nouns().length / 6),
    clip(doc.verbs().length / 3),
    clip(count('#Preposition') / 4),
    clip(count('#Adjective') / 3),
    count('(#Comparative|#Superlative)') > 0 ? 1 : 0,
    /['’]s\b/.test(q) ? 1 : 0,
    COMPARISON.test(q) ? 1 : 0,
    YES_NO.test(q) ? 1 : 0,
    /[A-Z"][^,?]*\bor\b\s+["A-Z]/.test(q) ? 1 : 0,
    clip((decomposeQuestion(q).length - 1) / 3),
    clip((lower.match(/\bof\b/g)?.length ?? 0) / 3),
    RELATIVE.test(q.slice(q.indexOf(' ') + 1)) ? 1 : 0,
    wh(/\b(who|whom|whose)\b/),
    wh(/\b(when|what year|which year|what date)\b/),
    wh(/\bwhere\b/),
    wh(/\bhow (many|much|old|long)\b/),
    wh(/\bwhich\b/),
    wh(/\bwhat\b/),
    ROLE.test(q) ? 1 : 0,
  ];
}
