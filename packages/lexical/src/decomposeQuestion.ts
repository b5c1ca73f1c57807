import { capitalisedSpans, quotedTitles } from './entities';
import { canonicalText, STOP_WORDS, terms } from './text';

/** Nouns that name a person: a sub-question about one asks "Who". */
export const PERSON_NOUNS: ReadonlySet<string> = new Set([
  'person', 'man', 'woman', 'actor', 'actress', 'singer', 'author', 'writer', 'director', 'player', 'artist', 'musician', 'politician',
  'king', 'queen', 'president', 'physicist', 'scientist', 'composer', 'performer', 'founder', 'leader', 'candidate', 'publisher',
  'husband', 'wife', 'spouse', 'father', 'mother', 'son', 'daughter', 'child', 'sibling', 'brother', 'sister', 'member', 'star', 'producer',
  'creator', 'owner', 'designer', 'architect', 'inventor', 'coach', 'manager', 'ruler', 'emperor', 'governor', 'mayor', 'minister',
  'individual', 'explorer', 'rapper', 'songwriter', 'novelist', 'poet', 'painter', 'partner', 'successor', 'predecessor', 'chairman', 'ceo',
  'captain', 'editor', 'narrator', 'voice', 'host', 'winner', 'runner-up', 'receiver', 'cousin', 'grandfather', 'grandmother', 'uncle', 'aunt',
  'creators', 'founders', 'members', 'performers', 'stars', 'developer',
]);

/**
 * Nouns a question relates to an entity with "of" or a possessive ("the birthplace of X", "X's
 * label"): each such phrase is a look-up of its own, whatever the entity is.
 */
const RELATION_NOUNS = new Set([
  ...PERSON_NOUNS,
  'birthplace', 'hometown', 'capital', 'headquarters', 'seat', 'mouth', 'source', 'label', 'league', 'team', 'employer', 'nationality',
  'sequel', 'namesake', 'manufacturer', 'distributor', 'broadcaster', 'network', 'studio', 'club', 'band', 'parent', 'language', 'currency',
  'religion', 'residence', 'citizenship', 'origin', 'mascot', 'owner', 'operator', 'father', 'genre', 'instrument', 'country', 'city', 'state',
]);
/** Relation nouns of more than one word. */
const RELATION_PHRASES = /^(?:(?:place|city|country|date|year|state|town) of (?:birth|death|citizenship|origin)|alma mater|record label|birth ?place|birth country|home (?:country|town|city|state)|body of water)\b/;

/** Kinds of thing a description can pick out ("the county where …", "the band that …"): heads of descriptions. */
const KIND_NOUNS = new Set([
  'country', 'city', 'state', 'county', 'town', 'village', 'region', 'province', 'district', 'continent', 'area', 'place', 'location', 'island',
  'nation', 'territory', 'colony', 'empire', 'kingdom', 'company', 'band', 'group', 'team', 'organization', 'organisation', 'association',
  'school', 'university', 'college', 'party', 'river', 'lake', 'sea', 'ocean', 'mountain', 'range', 'film', 'movie', 'album', 'song', 'single',
  'book', 'novel', 'show', 'series', 'network', 'station', 'league', 'church', 'language', 'sport', 'war', 'battle', 'event', 'club', 'airport',
  'museum', 'building', 'institution', 'agency', 'government', 'dynasty', 'game', 'magazine', 'newspaper', 'label', 'studio',
  'program', 'programme', 'character', 'county', 'capital', 'municipality', 'parish', 'borough', 'division', 'conference', 'award', 'prize',
  ...PERSON_NOUNS,
]);

const RELATIVE_PRONOUN = /^(?:where|that|which|who|whom|whose|when|(?:in|at|on|from|of|to|for|under|by|with) (?:which|whom))$/;
const WH_WORD = /\b(?:what|which|who|whom|whose|when|where|how|why)\b/i;
/** A wh-word that asks (not one that relates): a clause holding it is the question's own, not a description. */
const ASKING = /\b(?:what|how|whom)\b/i;
const SUBORDINATORS = new Set(['when', 'while', 'until']);
const STRANDED = new Set(['in', 'of', 'for', 'from', 'into', 'to', 'at', 'on', 'with', 'by']);
const AUXILIARIES = new Set(['is', 'was', 'are', 'were', 'be', 'been', 'being', 'will', 'would', 'has', 'have', 'had', 'did', 'does', 'do', 'can', 'could', 'may', 'might', 'shall', 'should', 'must']);
/**
 * Words that keep a clause going after its verb: prepositions, articles and participles that
 * complete "is located in", "is part of", "was born in".
 */
const CONTINUERS = new Set([
  'in', 'of', 'on', 'at', 'for', 'by', 'with', 'to', 'from', 'into', 'as', 'the', 'a', 'an', 'its', 'his', 'her', 'their', 'during', 'before',
  'after', 'near', 'part', 'also', 'first', 'now', 'currently', 'originally', 'once', 'still', 'directly', 'just', 'most', 'best',
]);
/**
 * Verbs that start the main clause once a description's clause is complete ("the state where X is
 * located become …", "the country that produced Y taken by …"). Words in -ed count as verbs too.
 */
const VERBS = new Set([
  'become', 'became', 'leave', 'left', 'fall', 'fell', 'start', 'begin', 'began', 'begun', 'make', 'made', 'dissolve', 'invade', 'open',
  'join', 'end', 'win', 'won', 'play', 'take', 'took', 'taken', 'form', 'found', 'create', 'release', 'die', 'live', 'marry', 'gain', 'get',
  'got', 'enter', 'go', 'went', 'gone', 'come', 'came', 'hold', 'held', 'host', 'issue', 'stop', 'sell', 'sold', 'refuse', 'reach', 'include',
  'change', 'use', 'say', 'said', 'have', 'has', 'had', 'give', 'gave', 'given', 'build', 'built', 'write', 'wrote', 'written', 'sing', 'sang',
  'sung', 'run', 'ran', 'lose', 'lost', 'abolish', 'adopt', 'sign', 'declare', 'elect', 'establish', 'handle', 'occur', 'border', 'receive',
  'stand', 'stood', 'meet', 'met', 'bring', 'brought', 'send', 'sent', 'produce', 'record', 'attend', 'graduate', 'serve', 'sit', 'represent',
  'belong', 'belongs', 'grant', 'allow', 'fight', 'fought', 'beat', 'defeat', 'rule', 'reign', 'know', 'known', 'born', 'bear', 'name', 'call',
  'lie', 'lies', 'flow', 'flows', 'contain', 'contains', 'share', 'shares', 'compete', 'announce', 'appear', 'debut', 'premiere', 'air',
]);

interface Description {
  start: number;
  end: number;
  /** The head noun: the placeholder's name ("[county from step 1]"). */
  noun: string;
  /** The sub-question that looks the description up. */
  question: string;
}

/**
 * Splits a question into a chain of look-ups, innermost first. A description that names its
 * referent through an entity (or an earlier step's answer) becomes its own sub-goal, and the
 * question keeps a placeholder for its answer; repeated until no description is left, so nested
 * relations yield one step per hop:
 *   - a relation of an entity: "the director of Jaws", "the birthplace of [person from step 1]";
 *   - a possessive: "Izgoy's performer", "Gisvi's city of birth";
 *   - a relative clause: "the county where X is located", "the band that made Y", cut where the
 *     main clause resumes ("the state where X is located | become part of …");
 *   - a contact or participle clause: "the city X was born", "the country containing X".
 * The whole question minus a description must still ask something, or the description is the
 * last step itself. Purely lexical: no rule knows a dataset or a question.
 */
export function decomposeQuestion(question: string): string[] {
  // Canonical text first: a no-break space or a zero-width character would hide the spaces the rules read.
  let body = canonicalText(question).trim().replace(/[?.!？]+$/, '');
  const steps: string[] = [];
  for (let guard = 0; guard < 5; guard++) {
    const found = innermost(body).find((d) => hasContent(`${body.slice(0, d.start)} ${body.slice(d.end)}`));
    if (!found) break;
    steps.push(found.question);
    body = `${body.slice(0, found.start)}[${found.noun} from step ${steps.length}]${body.slice(found.end)}`;
  }
  return [...steps, `${body}?`];
}

/** The descriptions of `body` that contain no other description, left to right. */
function innermost(body: string): Description[] {
  const all = [...relationsOf(body), ...possessives(body), ...clauses(body)].filter((d) => d.end > d.start);
  const inside = (a: Description, b: Description) => a !== b && b.start >= a.start && b.end <= a.end && (b.start !== a.start || b.end !== a.end);
  // A description is innermost when no other one starts inside it (one that starts inside and
  // runs on is a clause the first one's end cut short: it is nested all the same).
  const minimal = all.filter((a) => !all.some((b) => inside(a, b) || (b.start > a.start && b.start < a.end)));
  const unique = minimal.filter((d, i) => minimal.findIndex((o) => o.start === d.start && o.end === d.end) === i);
  return unique.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Entities of `text` that start at `at` (after spaces): a placeholder, a quoted title or a capitalised span. */
function anchorAt(text: string, at: number): { end: number; placeholder: boolean } | undefined {
  const rest = text.slice(at);
  const lead = rest.length - rest.trimStart().length;
  const s = rest.trimStart();
  const placeholder = /^\[[^\]]+ from step \d+\]/.exec(s);
  if (placeholder) return { end: at + lead + placeholder[0].length, placeholder: true };
  const quoted = /^["“«„「『][^"”»“」』]{1,80}["”»“」』]/.exec(s);
  if (quoted) return { end: at + lead + quoted[0].length, placeholder: false };
  if (!/^[\p{Lu}\d]/u.test(s)) return undefined;
  // "The Jewel of the Nile": the span finder drops a leading "The", the name keeps it.
  const article = /^The (?=[\p{Lu}\d])/u.exec(s)?.[0] ?? '';
  const found = capitalisedSpans(s).find((c) => s.startsWith(c) || s.startsWith(`${article}${c}`));
  const span = found && article && !s.startsWith(found) ? `${article}${found}` : found;
  // A possessive's owner ("Izgoy's performer") is not the entity; the possessive is.
  if (!span || /['’]s$/.test(span) || /^['’]s\b/.test(s.slice(span.length))) return undefined;
  let end = at + lead + span.length;
  // "Johnnycake, West Virginia": a place and its state read as one name.
  const more = /^, ([A-Z][\w.-]*(?: [A-Z][\w.-]*)*)/.exec(text.slice(end));
  if (more && !WH_WORD.test(more[1]!)) end += more[0].length;
  return { end, placeholder: false };
}

function askerFor(noun: string, pronoun = ''): string {
  return PERSON_NOUNS.has(noun) || pronoun === 'who' || pronoun === 'whom' ? 'Who is' : 'What is';
}

function subQuestion(body: string, start: number, end: number, noun: string, pronoun = ''): string {
  let phrase = body.slice(start, end).trim().replace(/[,\s]+$/, '');
  if (/^(?:The|A|An) /.test(phrase)) phrase = phrase[0]!.toLowerCase() + phrase.slice(1);
  return `${askerFor(noun, pronoun)} ${phrase}?`;
}

/** "the director of Jaws", "the country of [performer from step 1]": a relation noun, "of", an entity. */
function relationsOf(body: string): Description[] {
  const out: Description[] = [];
  for (const m of body.matchAll(/ of (?=((?:(?:the|a|an) )?)((?:[a-z][\w-]* ){0,3}))/g)) {
    // The noun before "of", with "place of birth"-like phrases read whole.
    const before = body.slice(0, m.index);
    const words = before.split(' ');
    let phraseStart = before.length - (words.at(-1) ?? '').length;
    let noun = (words.at(-1) ?? '').toLowerCase();
    let multi = false;
    const two = words.slice(-3).join(' ').toLowerCase();
    const phrase = /((?:place|city|country|date|year|state|town) of (?:birth|death|citizenship|origin)|alma mater|record label|birth ?place|birth country|home (?:country|town|city|state)|body of water)$/.exec(two);
    if (phrase) {
      phraseStart = before.length - phrase[1]!.length;
      noun = phrase[1]!.split(' ')[0]!;
      multi = true;
    }
    if (!/^[a-z][\w-]*$/.test(noun) || (!multi && !RELATION_NOUNS.has(noun) && !KIND_NOUNS.has(noun))) continue;
    if ((m[2] ?? '').split(' ').some((w) => w && (STOP_WORDS.has(w) || VERBS.has(w) || /ed$/.test(w)))) continue;
    const anchor = anchorAt(body, m.index + m[0].length + (m[1] ?? '').length + (m[2] ?? '').length);
    if (!anchor) continue;
    // "the city of Boston" names a place; a kind noun takes an earlier answer, not a name.
    if (!RELATION_NOUNS.has(noun) && !multi && !anchor.placeholder) continue;
    // Back over the article and up to two modifiers ("the first president of", "the main international airport of").
    const lead = /(?:\b(?:the|a|an) )?(?:(?:[a-z][\w-]* ){0,2})$/.exec(body.slice(0, phraseStart));
    let start = phraseStart;
    if (lead) {
      const mods = lead[0].replace(/^(?:the|a|an) /, '').trim().split(' ').filter(Boolean);
      if (!mods.some((w) => STOP_WORDS.has(w) || VERBS.has(w) || AUXILIARIES.has(w))) start = phraseStart - lead[0].length;
      else if (/\b(?:the|a|an) $/.test(body.slice(0, phraseStart))) start = phraseStart - (/(?:the|a|an) $/.exec(body.slice(0, phraseStart))![0].length);
    }
    // "become a member of X" states a relation; "which area of X" asks one: neither is a description.
    if (/^(?:a|an) /.test(body.slice(start, phraseStart)) || /\b(?:which|what|how)\s+$/i.test(body.slice(0, start))) continue;
    out.push({ start, end: anchor.end, noun, question: subQuestion(body, start, anchor.end, noun) });
  }
  return out;
}

/** "Izgoy's performer", "Gisvi's city of birth", "[performer from step 1]'s country". */
function possessives(body: string): Description[] {
  const out: Description[] = [];
  for (const m of body.matchAll(/['’]s ((?:[a-z][\w-]* ){0,2}[a-z][\w-]*)/g)) {
    const at = m.index;
    const owner = ownerBefore(body, at);
    if (owner === undefined) continue;
    const words = (m[1] ?? '').split(' ');
    // The possessed noun: the last known relation or kind noun among the (at most three) words,
    // else a single word that a function word or the question's end follows.
    let take = 0;
    for (let i = words.length; i > 0; i--) {
      const w = words[i - 1]!;
      if (words.slice(0, i).some((x) => STOP_WORDS.has(x) || VERBS.has(x))) continue;
      if (RELATION_NOUNS.has(w) || KIND_NOUNS.has(w) || RELATION_PHRASES.test(words.slice(0, i).join(' '))) {
        take = i;
        break;
      }
    }
    if (take === 0) {
      const w = words[0]!;
      const next = words[1];
      if (STOP_WORDS.has(w) || VERBS.has(w) || (next !== undefined && !STOP_WORDS.has(next) && !VERBS.has(next) && !/ed$/.test(next))) continue;
      take = 1;
    }
    let end = at + 3 + words.slice(0, take).join(' ').length;
    const ofMore = /^ of (?:birth|death|origin|citizenship)\b/.exec(body.slice(end));
    if (ofMore) end += ofMore[0].length;
    const noun = RELATION_PHRASES.test(words.slice(0, take).join(' ')) ? words[take - 1]! : words[take - 1]!;
    out.push({ start: owner, end, noun, question: subQuestion(body, owner, end, noun) });
  }
  return out;
}

/** Where the entity that owns a possessive at `at` starts: a placeholder, a quoted title or a capitalised span. */
function ownerBefore(body: string, at: number): number | undefined {
  const before = body.slice(0, at);
  const placeholder = /\[[^\]]+ from step \d+\]$/.exec(before);
  if (placeholder) return placeholder.index;
  const quoted = /["“«„「『][^"”»“」』]{1,80}["”»“」』]$/.exec(before);
  if (quoted) return quoted.index;
  const spans = capitalisedSpans(before).map((s) => s.replace(/['’]s$/, ''));
  const span = spans.filter((s) => before.endsWith(s)).sort((a, b) => b.length - a.length)[0];
  return span ? at - span.length : undefined;
}

/**
 * Relative, contact and participle clauses after a kind noun: "the county where X is located",
 * "the city X was born", "the country containing X". The clause must name an entity or an
 * earlier answer (or carry two content words), and must not hold the question's own wh-word.
 */
function clauses(body: string): Description[] {
  const out: Description[] = [];
  for (const a of body.matchAll(/\b(?:the|a|an) /gi)) {
    // The head noun phrase: the noun and up to two modifiers before it, each length tried.
    const words = /^((?:[a-z][\w-]*,? ){1,3})/.exec(body.slice(a.index + a[0].length))?.[1]?.split(' ').filter(Boolean) ?? [];
    for (let k = 1; k <= words.length; k++) {
      const noun = words[k - 1]!.replace(/,$/, '').toLowerCase();
      const modifiers = words.slice(0, k - 1);
      if (modifiers.some((w) => /,$/.test(w) || STOP_WORDS.has(w) || VERBS.has(w))) break;
      const description = clauseAfter(body, a.index, a.index + a[0].length + words.slice(0, k).join(' ').length + 1, noun);
      if (description) {
        out.push(description);
        break;
      }
    }
  }
  return out;
}

function clauseAfter(body: string, start: number, from: number, noun: string): Description | undefined {
  const rest = body.slice(from);
  const pronoun = /^((?:in|at|on|from|of|to|for|under|by|with) (?:which|whom)|where|that|which|who|whom|whose|when)\b/.exec(rest)?.[1];
  let kind: 'relative' | 'contact' | 'participle';
  if (pronoun && RELATIVE_PRONOUN.test(pronoun)) kind = 'relative';
  else if (KIND_NOUNS.has(noun) && contactAnchor(body, from)) kind = 'contact';
  else if (KIND_NOUNS.has(noun) && /^(?:[a-z]+ing|named|called|known as|based in|located in|founded by|created by|directed by|written by|produced by|owned by|considered|nicknamed)\b/.test(rest)) kind = 'participle';
  else return undefined;
  if (kind !== 'relative' && !KIND_NOUNS.has(noun)) return undefined;
  if (STOP_WORDS.has(noun) || VERBS.has(noun) || /ed$/.test(noun)) return undefined;
  const clauseStart = kind === 'relative' ? from + pronoun!.length : from;
  const end = clauseEnd(body, clauseStart, kind === 'participle' || (kind === 'relative' && /^(?:who|which|that)$/.test(pronoun!)));
  const clause = body.slice(clauseStart, end);
  if (ASKING.test(clause.replace(/\[[^\]]*\]/g, ''))) return undefined;
  const anchored = /\[[^\]]+ from step \d+\]/.test(clause) || capitalisedSpans(clause).length > 0 || quotedTitles(clause).length > 0;
  if (!anchored && terms(clause).length < 2) return undefined;
  return { start, end, noun, question: subQuestion(body, start, end, noun, (pronoun ?? '').split(' ').at(-1)) };
}

/** "the city Sarah Sorge was born": an entity right after the noun, then a verb. */
function contactAnchor(body: string, from: number): boolean {
  const the = /^the (?=[\p{Lu}])/u.exec(body.slice(from))?.[0].length ?? 0;
  const anchor = anchorAt(body, from + the);
  if (!anchor) return false;
  const next = /^\s*([a-z]+)/.exec(body.slice(anchor.end))?.[1] ?? '';
  return AUXILIARIES.has(next) || VERBS.has(next) || /^[a-z]{3,}ed$/.test(next);
}

/**
 * Where a clause that starts at `from` ends: at a comma or the question's end, or where, once the
 * clause has its verb (and a subject or object), a verb starts the main clause. `subjectIsPronoun`
 * for "who/which/that" clauses, whose first word is their verb.
 */
function clauseEnd(body: string, from: number, subjectIsPronoun: boolean): number {
  const re = /\[[^\]]+ from step \d+\]|["“«„「『][^"”»“」』]{1,80}["”»“」』]|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.\-&]*|[,;:()–—]/gu;
  re.lastIndex = from;
  let end = from;
  let verbSeen = false;
  let argument = subjectIsPronoun;
  let previous = '';
  // Prepositions after the last word kept: a clause may end in one ("is part of", "turns into").
  let stranded = 0;
  let strandedOnly = true;
  const stop = () => (verbSeen && strandedOnly && stranded > end ? stranded : end);
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const token = m[0];
    const tokenEnd = m.index + token.length;
    if (token === ',') {
      // "X, Y" inside a place name was read as one anchor already; any other comma ends the clause.
      const after = anchorAt(body, m.index + 1);
      if (after && /^[A-Z]/.test(body.slice(m.index + 1).trimStart()) && /[A-Z][\w.]*$/.test(body.slice(0, m.index)) && !verbSeen) {
        end = after.end;
        re.lastIndex = after.end;
        continue;
      }
      return stop();
    }
    if (/^[;:()–—]$/.test(token)) return stop();
    const lower = token.toLowerCase();
    const keep = (extends_: boolean) => {
      if (extends_) {
        end = tokenEnd;
        stranded = 0;
        strandedOnly = true;
      } else {
        stranded = tokenEnd;
        if (!STRANDED.has(lower)) strandedOnly = false;
      }
      previous = lower;
    };
    if (/^[\p{Lu}\d["“]/u.test(token)) {
      argument = true;
      keep(true);
      continue;
    }
    const verb = AUXILIARIES.has(lower) || VERBS.has(lower) || /^[a-z]{3,}ed$/.test(lower);
    if (SUBORDINATORS.has(lower) && verbSeen) {
      // "… lived in when he died": a clause inside the clause; it needs a verb of its own.
      verbSeen = false;
      argument = false;
      keep(true);
      continue;
    }
    if (!verbSeen) {
      if (verb || (subjectIsPronoun && end === from) || (argument && !CONTINUERS.has(lower) && !STOP_WORDS.has(lower) && !hasVerbAhead(body, tokenEnd))) verbSeen = true;
      else if (!CONTINUERS.has(lower) && !STOP_WORDS.has(lower)) argument = true;
      keep(verbSeen || !STOP_WORDS.has(lower));
      continue;
    }
    // After the verb: a new verb not joined to an auxiliary starts the main clause.
    if (verb && !AUXILIARIES.has(previous) && argument) return stop();
    if (!STOP_WORDS.has(lower) && !CONTINUERS.has(lower)) argument = true;
    keep(!STOP_WORDS.has(lower) || verb);
  }
  return stop();
}

/** True when a word the clause reader counts as a verb occurs before the next comma. */
function hasVerbAhead(body: string, from: number): boolean {
  const rest = body.slice(from).split(/[,;:]/)[0] ?? '';
  return rest.split(/\s+/).some((w) => AUXILIARIES.has(w.toLowerCase()) || VERBS.has(w.toLowerCase()) || /^[a-z]{3,}ed$/.test(w));
}

/** True when a question fragment asks something beyond its wh-word, auxiliary and placeholders ("What is" does not). */
function hasContent(fragment: string): boolean {
  return terms(fragment.replace(/\[[^\]]*\]/g, ' ')).length > 0;
}
