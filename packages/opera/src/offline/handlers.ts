import { findPlaceholders } from '@multihop/core';
import { mulberry32 } from '@multihop/metrics';
import { defineOfflineHandler, STOPWORDS, capitalisedSpans, classifyQuestion, coveredBy, quotedTitles, rankSentences, readAnswer, terms, tokens, passagesVar as passages, stringsVar as strings, textVar as text } from '@multihop/offline-model';
import { operaAnalysisAnswerPrompt, operaPlanPrompt, operaPlanRepairPrompt, operaRewritePrompt, operaSynthesisPrompt } from '../prompts';

/**
 * Sampling for rollouts (MAPGRPO needs G different candidates per prompt, opera.md §MAPGRPO).
 * The offline model is deterministic, so a caller that wants candidates passes `sample`:
 * 0 (or none) is the greedy answer; k > 0 seeds a small, documented perturbation from k and the
 * call's text. The perturbations exercise the reward pipeline; they are not a policy.
 */
function sampler(vars: Record<string, unknown>, key: string): (() => number) | undefined {
  const sample = typeof vars['sample'] === 'number' ? vars['sample'] : 0;
  if (!Number.isInteger(sample) || sample <= 0) return undefined;
  let hash = 2166136261;
  for (const ch of `${sample}:${key}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  return mulberry32(hash >>> 0);
}

const PERSON_NOUNS = new Set([
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
    if (!noun || STOPWORDS.has(noun)) continue;
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
    if (next !== '' && !(nextWord && (STOPWORDS.has(nextWord) || /ed$/.test(nextWord)))) continue;
    if (!hasContent(`${body.slice(0, match.index)}${body.slice(end)}`)) continue;
    return { start: match.index, end, noun, description: body.slice(match.index, end) };
  }
  return undefined;
}

/** True when a question fragment asks something beyond its wh-word and auxiliary ("What is" does not). */
function hasContent(fragment: string): boolean {
  return terms(fragment).length > 0;
}

function subGoalsOf(questions: string[]): Array<{ id: number; question: string; dependsOn: number[] }> {
  return questions.map((question, i) => ({
    id: i + 1,
    question,
    dependsOn: [...new Set(findPlaceholders(question).map((p) => Number(p.stepRef)))].filter((n) => Number.isInteger(n)),
  }));
}

/**
 * Plan Agent: the lexical decomposition above as numbered sub-goals. In the repair round
 * (`problems` given) it plans again from the question, unperturbed. Sampled candidates
 * (`sample` > 0) are, with equal odds: the plan itself; the question as one sub-goal; the
 * chain with its placeholder replaced by the description it stood for (no dependency); the
 * chain with a placeholder pointing one step too far (dangling, which validation rejects).
 */
export const operaPlan = defineOfflineHandler([operaPlanPrompt, operaPlanRepairPrompt], (vars) => {
  const question = text(vars, 'question', 'opera-plan');
  const steps = decomposeQuestion(question);
  const rng = vars['problems'] === undefined ? sampler(vars, question) : undefined;
  if (!rng || steps.length < 2) return { subGoals: subGoalsOf(steps) };
  const pick = Math.floor(rng() * 4);
  if (pick === 1) return { subGoals: subGoalsOf([question]) };
  if (pick === 2) return { subGoals: subGoalsOf(steps.map((s) => s.replace(/\[([^\]]*?) from step \d+\]/g, 'the $1'))) };
  if (pick === 3) return { subGoals: subGoalsOf(steps.map((s) => s.replace(/from step (\d+)\]/g, (_, n: string) => `from step ${Number(n) + steps.length}]`))) };
  return { subGoals: subGoalsOf(steps) };
});

/** Coverage the supporting sentence must reach before the offline analysis says "yes". */
export const OPERA_SUFFICIENCY_THRESHOLD = 0.6;

/**
 * Analysis-Answer Agent: reads the sub-goal's answer from the retrieved sentences; "yes" only
 * when the sentence it came from (with its title) covers enough of the sub-goal's weighted
 * terms and a typed answer was found, else "no" with the terms nothing mentions. Sampled
 * candidates flip the verdict (p = 0.3) or answer with another span of the top sentence (p = 0.3).
 */
export const operaAnalysisAnswer = defineOfflineHandler(operaAnalysisAnswerPrompt, (vars) => {
  const subGoal = text(vars, 'subGoal', 'opera-analysis-answer');
  const pool = passages(vars, 'passages', 'opera-analysis-answer');
  const reading = readAnswer(subGoal, pool);
  const typed = headNounAnswer(subGoal, pool);
  const found = typed !== undefined || (reading.support !== undefined && reading.answer !== 'unknown' && reading.answer.trim() !== '');
  let status: 'yes' | 'no' = typed?.sufficient || (found && reading.confidence >= OPERA_SUFFICIENCY_THRESHOLD) ? 'yes' : 'no';
  let answer = typed?.answer ?? (found ? reading.answer : '');
  const rng = sampler(vars, `${subGoal}|${pool.map((p) => p.id).join(',')}`);
  if (rng) {
    const roll = rng();
    if (roll < 0.3) status = status === 'yes' ? 'no' : 'yes';
    else if (roll < 0.6 && reading.support) {
      const others = capitalisedSpans(reading.support.sentence).filter((s) => s !== answer);
      answer = others[Math.floor(rng() * others.length)] ?? answer;
    }
  }
  const covered = new Set(terms(pool.map((p) => `${p.title} ${p.text}`).join(' ')));
  const missing = tokens(subGoal).filter((t) => !STOPWORDS.has(t) && !covered.has(terms(t)[0] ?? t));
  const analysis =
    status === 'yes' && reading.support
      ? `"${reading.support.passage.title}" states: ${reading.support.sentence}`
      : `The passages cover ${reading.confidence.toFixed(2)} of the sub-goal${missing.length ? `; nothing mentions ${missing.join(', ')}` : ''}${answer ? `; the best guess "${answer}" is not established` : ''}.`;
  return { status, answer: status === 'no' && !found ? '' : answer, analysis };
});

/**
 * "What is the county where X is located?" names the kind of answer it wants: a span of the
 * best sentences that ends in that noun ("Mountrail County") is the answer, and sufficient when
 * its sentence also names every entity of the sub-goal.
 */
function headNounAnswer(subGoal: string, pool: ReturnType<typeof passages>): { answer: string; sufficient: boolean } | undefined {
  const head = /^(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?([a-z]+)\b/i.exec(subGoal.trim())?.[1]?.toLowerCase();
  if (!head || STOPWORDS.has(head) || ['name', 'year', 'date', 'number'].includes(head)) return undefined;
  const entities = classifyQuestion(subGoal).entities;
  for (const s of rankSentences(subGoal, pool).slice(0, 3)) {
    if (s.score <= 0) break;
    // Spans run across connectors ("Mountrail County in the U.S"): their pieces are candidates too.
    const pieces = capitalisedSpans(s.sentence).flatMap((c) => [c, ...c.split(/\s+(?:in|on|at|for|and|upon|the|of)\s+/)]);
    const span = pieces.find((c) => c.toLowerCase().split(/\s+/).at(-1) === head && !entities.includes(c));
    if (span) {
      const text = `${s.passage.title} ${s.sentence}`.toLowerCase();
      return { answer: span, sufficient: entities.every((e) => text.includes(e.toLowerCase())) };
    }
  }
  return undefined;
}

const STRATEGIES = ['entity-focus', 'keyword-expansion', 'simplification'] as const;

/**
 * Rewrite Agent: tries, in order, the entities of the sub-goal with its relation words
 * (entity-focus), those plus the names the failure analysis quoted (keyword-expansion), then the
 * entities alone (simplification), skipping any query already tried. Sampled candidates start
 * at a random strategy and may drop one keyword.
 */
export const operaRewrite = defineOfflineHandler(operaRewritePrompt, (vars) => {
  const subGoal = text(vars, 'subGoal', 'opera-rewrite');
  const failed = typeof vars['query'] === 'string' ? vars['query'] : subGoal;
  const analysis = typeof vars['analysis'] === 'string' ? vars['analysis'] : '';
  const tried = new Set([...strings(vars, 'previousQueries'), failed].map((q) => q.trim().toLowerCase()));
  const shape = classifyQuestion(subGoal);
  const entities = [...new Set([...quotedTitles(subGoal), ...shape.entities])];
  const entityTerms = new Set(entities.flatMap((e) => tokens(e)));
  const relation = tokens(subGoal).filter((t) => !STOPWORDS.has(t) && !entityTerms.has(t));
  const quoted = capitalisedSpans(analysis.replace(/^"[^"]*" states:/, '')).filter((s) => !coveredBy(s, new Set(terms(subGoal)))).slice(0, 2);
  const byStrategy: Record<(typeof STRATEGIES)[number], string[]> = {
    'entity-focus': [...entities, ...relation],
    'keyword-expansion': [...entities, ...relation, ...quoted],
    simplification: entities.length ? entities : relation,
  };
  const rng = sampler(vars, `${subGoal}|${[...tried].join('|')}`);
  const start = rng ? Math.floor(rng() * STRATEGIES.length) : 0;
  for (let i = 0; i < STRATEGIES.length; i++) {
    const strategy = STRATEGIES[(start + i) % STRATEGIES.length]!;
    let keywords = byStrategy[strategy].filter(Boolean);
    if (rng && keywords.length > 2 && rng() < 0.5) keywords = keywords.filter((_, k) => k !== Math.floor(rng() * keywords.length));
    const query = keywords.join(' ').trim();
    if (query && !tried.has(query.toLowerCase())) return { query, strategy, keywords };
  }
  const keywords = tokens(subGoal).filter((t) => !STOPWORDS.has(t));
  return { query: `${keywords.join(' ')} ${tried.size}`.trim(), strategy: 'keyword-expansion', keywords };
});

/**
 * Synthesis: the answer of the last sub-goal the trajectory resolved (the plan's last step
 * yields the final answer), else the latest answer it has at all, else "unknown".
 */
export const operaSynthesis = defineOfflineHandler(operaSynthesisPrompt, (vars) => {
  const trajectory = Array.isArray(vars['trajectory']) ? (vars['trajectory'] as Array<Record<string, unknown>>) : [];
  const answered = trajectory.filter((t) => typeof t['answer'] === 'string' && (t['answer'] as string).trim() !== '');
  const last = trajectory[trajectory.length - 1];
  const pick = last && answered.includes(last) ? last : (answered.filter((t) => t['status'] === 'yes').at(-1) ?? answered.at(-1));
  const answer = typeof pick?.['answer'] === 'string' ? (pick['answer'] as string) : 'unknown';
  return {
    answer,
    reasoning: pick ? `Step ${String(pick['step'])} ("${String(pick['subGoal'])}") answered ${answer}.` : 'No sub-goal was answered.',
  };
});
