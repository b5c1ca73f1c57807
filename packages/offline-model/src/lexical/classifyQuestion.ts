import { capitalisedSpans, quotedTitles } from '@multihop/lexical';

export type AnswerType = 'yes-no' | 'choice' | 'date' | 'number' | 'person' | 'place' | 'entity';
export type Comparative = 'earlier' | 'later' | 'more' | 'less';

export interface QuestionShape {
  type: AnswerType;
  /** For choice questions ("A or B?"): the options as the question writes them. */
  options: string[];
  /** For choice questions that compare a date or a quantity. */
  comparative?: Comparative;
  /** Entities the question names (capitalised spans and quoted titles). */
  entities: string[];
}

const YES_NO_START = /^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might)\b/i;

/**
 * Answer typing from the question's wording alone (who → person, when → date, how many →
 * number, "A or B" → choice, auxiliary verb first → yes/no), as a reader needs to know what
 * kind of span to extract.
 */
export function classifyQuestion(question: string): QuestionShape {
  const q = question.trim();
  const entities = [...new Set([...quotedTitles(q), ...capitalisedSpans(q)])];
  const options = choiceOptions(q);
  const comparative = comparativeOf(q);
  if (options.length >= 2) return { type: 'choice', options, comparative, entities };
  if (YES_NO_START.test(q)) return { type: 'yes-no', options: [], entities };
  const lower = q.toLowerCase();
  if (/\b(when|what year|which year|what date|what decade|which decade|what century)\b/.test(lower)) return { type: 'date', options: [], entities };
  if (/\b(how many|how much|how old|how long|how far|how tall|what number|what percentage|population)\b/.test(lower)) {
    return { type: 'number', options: [], entities };
  }
  if (/\b(who|whom|whose)\b/.test(lower) || /\b(which|what) (person|man|woman|actor|actress|singer|author|writer|director|player|artist|musician|politician|king|queen|president)\b/.test(lower)) {
    return { type: 'person', options: [], entities };
  }
  if (/\bwhere\b/.test(lower) || /\b(which|what) (city|country|state|town|county|region|province|island|continent|village|nation|place|location)\b/.test(lower)) {
    return { type: 'place', options: [], entities };
  }
  return { type: 'entity', options: [], entities };
}

function comparativeOf(q: string): Comparative | undefined {
  const lower = q.toLowerCase();
  if (/\b(first|earlier|earliest|older|oldest|before|sooner)\b/.test(lower)) return 'earlier';
  if (/\b(last|later|latest|younger|youngest|newer|newest|most recent|more recently)\b/.test(lower)) return 'later';
  if (/\b(more|most|larger|largest|bigger|biggest|higher|highest|longer|longest|taller|tallest|greater|greatest)\b/.test(lower)) return 'more';
  if (/\b(fewer|fewest|less|least|smaller|smallest|lower|lowest|shorter|shortest)\b/.test(lower)) return 'less';
  return undefined;
}

/** "…, A or B?" → [A, B]: the text after the last comma or colon, else the capitalised spans around "or". */
function choiceOptions(q: string): string[] {
  const body = q.replace(/[?.!]+$/, '');
  const orAt = body.lastIndexOf(' or ');
  if (orAt < 0) return [];
  const after = body.slice(orAt + 4).trim();
  const head = body.slice(0, orAt);
  const cut = Math.max(head.lastIndexOf(','), head.lastIndexOf(':'));
  let before = cut >= 0 ? head.slice(cut + 1).trim() : '';
  if (!before || before.split(/\s+/).length > 8) {
    const spans = [...quotedTitles(head), ...capitalisedSpans(head)];
    const last = spans.filter((s) => head.trimEnd().endsWith(s.replace(/["“”]/g, '')) || head.trimEnd().endsWith(`${s}"`) || head.trimEnd().endsWith(`${s}”`));
    before = last.sort((a, b) => b.length - a.length)[0] ?? '';
  }
  const clean = (s: string) => s.replace(/^["“']|["”']$/g, '').trim();
  const optionAfter = clean(after);
  const optionBefore = clean(before);
  if (!optionBefore || !optionAfter || optionAfter.split(/\s+/).length > 10) return [];
  return [optionBefore, optionAfter];
}
