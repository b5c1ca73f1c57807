import { capitalisedSpans, quotedTitles } from './entities';
import { STOP_WORDS, terms } from './text';

/** Nouns that name a person: a sub-question about one asks "Who". */
export const PERSON_NOUNS: ReadonlySet<string> = new Set([
  'person', 'man', 'woman', 'actor', 'actress', 'singer', 'author', 'writer', 'director', 'player', 'artist', 'musician', 'politician',
  'king', 'queen', 'president', 'physicist', 'scientist', 'composer', 'performer', 'founder', 'leader', 'candidate', 'publisher',
  'husband', 'wife', 'spouse', 'father', 'mother', 'son', 'daughter', 'child', 'sibling', 'brother', 'sister', 'member', 'star', 'producer',
  'creator', 'owner', 'designer', 'architect', 'inventor', 'coach', 'manager', 'ruler', 'emperor', 'governor', 'mayor', 'minister',
]);
// Words that end a noun phrase rather than belong to it: a relative clause must follow the head noun directly.
const NOT_NOUN = new Set(['of', 'in', 'on', 'at', 'for', 'from', 'by', 'with', 'to', 'and', 'or', 'is', 'was', 'are', 'were', 'the', 'a', 'an']);
const RELATIVE = /\b(the|a|an) ((?:[a-z][\w-]* ){0,2}[a-z][\w-]*) (who|whom|whose|that|which|where) (.+)$/i;

/**
 * Splits a question into a chain of look-ups, innermost first: a trailing relative clause
 * ("…of the county where X is located") or a possessive ("Anna Benson's husband") names an
 * entity the rest of the question is about; that description becomes its own sub-goal and the
 * question keeps a placeholder for its answer. Applied again to the inner description, it
 * yields 3- and 4-hop chains. Purely lexical: no rule knows a dataset or a question.
 */
export function decomposeQuestion(question: string, depth = 0): string[] {
  const body = question.trim().replace(/[?.!]+$/, '');
  if (depth >= 3) return [`${body}?`];
  const relative = findRelative(body);
  if (relative) {
    const inner = `${relative.asker} ${relative.description}?`;
    const innerSteps = decomposeQuestion(inner, depth + 1);
    const outer = `${body.slice(0, relative.start)}[${relative.noun} from step ${innerSteps.length}]${body.slice(relative.end)}?`;
    return [...innerSteps, outer];
  }
  const named = findPossessive(body) ?? findRoleOf(body);
  if (named) {
    const inner = `${PERSON_NOUNS.has(named.noun) ? 'Who' : 'What'} is ${named.description}?`;
    const innerSteps = decomposeQuestion(inner, depth + 1);
    const outer = `${body.slice(0, named.start)}[${named.noun} from step ${innerSteps.length}]${body.slice(named.end)}?`;
    return [...innerSteps, outer];
  }
  return [`${body}?`];
}

function findRelative(body: string): { start: number; end: number; noun: string; description: string; asker: string } | undefined {
  for (let from = 0; from < body.length; ) {
    const match = RELATIVE.exec(body.slice(from));
    if (!match) return undefined;
    const start = from + match.index;
    const words = (match[2] ?? '').split(' ');
    // "the religion widely practiced where…": the head noun is the last word that is not a participle.
    const noun = [...words].reverse().find((w) => !/(ed|ing)$/.test(w)) ?? words[words.length - 1] ?? '';
    // The description must leave an outer question with content of its own around it, and be a plain noun phrase.
    if (hasContent(body.slice(0, start)) && !words.some((w) => NOT_NOUN.has(w.toLowerCase()))) {
      const pronoun = (match[3] ?? '').toLowerCase();
      const asker = PERSON_NOUNS.has(noun.toLowerCase()) || pronoun === 'who' || pronoun === 'whom' ? 'Who is' : 'What is';
      return { start, end: body.length, noun: noun.toLowerCase(), description: `${match[1]!.toLowerCase()} ${match[2]} ${match[3]} ${match[4]}`, asker };
    }
    from = start + (match[1]?.length ?? 1);
  }
  return undefined;
}

function findPossessive(body: string): { start: number; end: number; noun: string; description: string } | undefined {
  // A span can carry the possessive with it ("Hsiao-wen's" is one token to the span finder).
  for (const span of [...quotedTitles(body), ...capitalisedSpans(body)].map((s) => s.replace(/['’]s$/, ''))) {
    const at = body.indexOf(`${span}'s `);
    if (at < 0) continue;
    const after = body.slice(at + span.length + 3);
    const noun = /^([a-z][\w-]*)/.exec(after)?.[1];
    if (!noun || STOP_WORDS.has(noun)) continue;
    const end = at + span.length + 3 + noun.length;
    // A possessive that is the whole question ("Who is X's father?") is already one look-up.
    if (!hasContent(`${body.slice(0, at)}${body.slice(end)}`)) continue;
    return { start: at, end, noun, description: `${span}'s ${noun}` };
  }
  return undefined;
}

/** "the author of The Feminine Mystique": a role noun followed by the named entity it is a role of. */
function findRoleOf(body: string): { start: number; end: number; noun: string; description: string } | undefined {
  for (const match of body.matchAll(/\bthe ([a-z]+) of (?=[A-Z"“])/g)) {
    const noun = match[1] ?? '';
    if (!PERSON_NOUNS.has(noun)) continue;
    const after = body.slice(match.index + match[0].length);
    const entity = [...quotedTitles(after), ...capitalisedSpans(after)].find((e) => after.replace(/^["“]/, '').startsWith(e));
    if (!entity) continue;
    const end = match.index + match[0].length + after.indexOf(entity) + entity.length + (/^["“]/.test(after) ? 1 : 0);
    // The name must end where the phrase does (a verb, a function word, the question's end);
    // a span cut short by a colon or a lower-case title word would plan a look-up of half a name.
    const next = body.slice(end).trim();
    const nextWord = /^([a-z]+)\b/.exec(next)?.[1];
    if (next !== '' && !(nextWord && (STOP_WORDS.has(nextWord) || /ed$/.test(nextWord)))) continue;
    if (!hasContent(`${body.slice(0, match.index)}${body.slice(end)}`)) continue;
    return { start: match.index, end, noun, description: body.slice(match.index, end) };
  }
  return undefined;
}

/** True when a question fragment asks something beyond its wh-word and auxiliary ("What is" does not). */
function hasContent(fragment: string): boolean {
  return terms(fragment).length > 0;
}
