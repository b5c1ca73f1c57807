import { findPlaceholders, type Placeholder } from './findPlaceholders';
import { lookupAnswer, type ResolvedAnswers } from './types';

/**
 * `text` with every placeholder whose step has an answer replaced by that answer; placeholders
 * of unanswered steps stay as they are, so the result can be substituted again later.
 * Replacement is one pass over the original text: an answer that itself looks like a
 * placeholder (a model answering "#2") is inserted literally, never substituted in turn.
 */
export function substitutePlaceholders(text: string, answers: ResolvedAnswers): string {
  let out = '';
  let from = 0;
  for (const placeholder of findPlaceholders(text)) {
    const answer = lookupAnswer(answers, placeholder.stepRef);
    if (answer === undefined) continue;
    out += text.slice(from, placeholder.start) + answer;
    from = placeholder.end;
  }
  return out + text.slice(from);
}

/** The placeholders in `text` whose step has no answer yet, in order of appearance. */
export function unresolvedPlaceholders(text: string, answers: ResolvedAnswers): Placeholder[] {
  return findPlaceholders(text).filter((p) => lookupAnswer(answers, p.stepRef) === undefined);
}
