import { capitalisedSpans, dates, numbers, quotedTitles, tokens, yearOf } from '@multihop/lexical';
import { classifyQuestion } from './classifyQuestion';

/** The entities a question names, quoted titles first. */
export function namedEntities(question: string): string[] {
  return [...new Set([...quotedTitles(question), ...capitalisedSpans(question)])];
}

/** What a comparison compares: the options of "A or B?", else the named entities, "A and B" read as two. */
export function comparedThings(question: string): string[] {
  const shape = classifyQuestion(question);
  if (shape.options.length >= 2) return shape.options;
  return [...new Set(namedEntities(question).flatMap((e) => e.split(/\s+and\s+/)).map((e) => e.trim()).filter((e) => e.length > 1))];
}

const yearIn = (text: string) => dates(text).map(yearOf).find((y) => y !== undefined);
const numberIn = (text: string) => numbers(text).find((n) => !/^(1[0-9]{3}|20[0-9]{2})$/.test(n.text))?.value;
const same = (a: string, b: string) => tokens(a).join(' ') === tokens(b).join(' ');

/**
 * A comparison settled from the answers of its sub-questions, the way an answer summariser or
 * conclude agent would: the sub-answer about each compared thing (by its name in the
 * sub-question), then "same"/"both" yes-no questions by whether the answers agree (or are all
 * yes), earlier/later by the years, more/less by the numbers. Undefined when the question is no
 * comparison or the sub-answers cannot settle it; `pairs` says how many things had an answer.
 */
export function settleComparison(question: string, subAnswers: ReadonlyArray<{ subGoal: string; answer: string }>): { answer?: string; pairs: number } {
  const shape = classifyQuestion(question);
  const pairs = comparedThings(question).flatMap((thing) => {
    const hit = subAnswers.find((a) => a.subGoal.toLowerCase().includes(thing.toLowerCase()));
    return hit ? [{ thing, answer: hit.answer }] : [];
  });
  if (pairs.length < 2) return { pairs: pairs.length };
  if (shape.type === 'yes-no') {
    const agree = /\bsame\b/i.test(question) ? pairs.every((p) => same(p.answer, pairs[0]!.answer)) : pairs.every((p) => same(p.answer, 'yes'));
    return { answer: agree ? 'yes' : 'no', pairs: pairs.length };
  }
  const pick = (value: (text: string) => number | undefined, larger: boolean) => {
    const valued = pairs.map((p) => ({ ...p, value: value(p.answer) })).filter((p): p is typeof p & { value: number } => p.value !== undefined);
    if (valued.length < 2) return undefined;
    return valued.reduce((best, p) => ((larger ? p.value > best.value : p.value < best.value) ? p : best)).thing;
  };
  const chosen =
    shape.comparative === 'earlier' || shape.comparative === 'later'
      ? pick(yearIn, shape.comparative === 'later')
      : shape.comparative === 'more' || shape.comparative === 'less'
        ? pick(numberIn, shape.comparative === 'more')
        : undefined;
  return { ...(chosen ? { answer: chosen } : {}), pairs: pairs.length };
}
