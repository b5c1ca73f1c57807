import { findPlaceholders } from '@multihop/core';
import { mulberry32 } from '@multihop/metrics';
import { alreadySearched, defineOfflineHandler, classifyQuestion, rankSentences, readAnswer, passagesVar as passages, stringsVar as strings, textVar as text } from '@multihop/offline-model';
import { STOP_WORDS, capitalisedSpans, coveredBy, decomposeQuestion, quotedTitles, terms, tokens } from '@multihop/lexical';
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
  // A comparison or yes/no sub-goal is settled when every option has the value it is compared by
  // (or every entity its passage), however little of the wording one sentence covers.
  let status: 'yes' | 'no' = typed?.sufficient || reading.settled || (found && reading.confidence >= OPERA_SUFFICIENCY_THRESHOLD) ? 'yes' : 'no';
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
  const missing = tokens(subGoal).filter((t) => !STOP_WORDS.has(t) && !covered.has(terms(t)[0] ?? t));
  const analysis =
    status === 'yes' && reading.support
      ? `"${reading.support.passage.title}" states: ${reading.support.sentence}`
      : `The passages cover ${reading.confidence.toFixed(2)} of the sub-goal${missing.length ? `; nothing mentions ${missing.join(', ')}` : ''}${answer ? `; the best guess "${answer}" is not established` : ''}.`;
  return { status, answer: status === 'no' && !found ? '' : answer, analysis };
});

/**
 * "What is the county where X is located?" names the kind of answer it wants: a span of the
 * best sentences that ends in that noun is the answer ("Jefferson County" for the first sub-goal
 * of musique-train's "What county shares a border with the county where Black Hawk Township is
 * located?"), and sufficient when its sentence also names every entity of the sub-goal.
 */
function headNounAnswer(subGoal: string, pool: ReturnType<typeof passages>): { answer: string; sufficient: boolean } | undefined {
  const head = /^(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?([a-z]+)\b/i.exec(subGoal.trim())?.[1]?.toLowerCase();
  if (!head || STOP_WORDS.has(head) || ['name', 'year', 'date', 'number'].includes(head)) return undefined;
  const entities = classifyQuestion(subGoal).entities;
  for (const s of rankSentences(subGoal, pool).slice(0, 3)) {
    if (s.score <= 0) break;
    // Spans run across connectors ("Lunenburg Municipal District in Lunenburg County", musique-train
    // 2hop__337205_776856, asked for a district): their pieces are candidates too.
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
 * entities alone (simplification), then single entities with single relation words, skipping any
 * query whose terms were already tried. Sampled candidates start at a random strategy and may drop
 * one keyword.
 */
export const operaRewrite = defineOfflineHandler(operaRewritePrompt, (vars) => {
  const subGoal = text(vars, 'subGoal', 'opera-rewrite');
  const failed = typeof vars['query'] === 'string' ? vars['query'] : subGoal;
  const analysis = typeof vars['analysis'] === 'string' ? vars['analysis'] : '';
  const tried = new Set([...strings(vars, 'previousQueries'), failed].map((q) => q.trim().toLowerCase()));
  const shape = classifyQuestion(subGoal);
  const entities = [...new Set([...quotedTitles(subGoal), ...shape.entities])];
  const entityTerms = new Set(entities.flatMap((e) => tokens(e)));
  const relation = tokens(subGoal).filter((t) => !STOP_WORDS.has(t) && !entityTerms.has(t));
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
    if (query && !alreadySearched(query, [...tried])) return { query, strategy, keywords };
  }
  // Every strategy's query ran: narrow to one entity with one relation word, or to the entity
  // alone, before giving up; never a query already tried (by its terms), never a counter appended.
  // A sub-goal that compares its entities (A or B; are both …) is not narrowed to one of them:
  // the analysis reads only the latest retrieval, and one option's evidence cannot settle a
  // comparison, so its best guess would only get worse.
  const compares = shape.type === 'choice' || (shape.type === 'yes-no' && entities.length >= 2);
  const narrower = compares ? [] : [...entities.flatMap((e) => [...relation.map((r) => `${e} ${r}`), e]), ...quoted, relation.join(' ')];
  const fresh = narrower.find((q) => q.trim() && !alreadySearched(q, [...tried]));
  if (fresh) return { query: fresh, strategy: 'simplification', keywords: fresh.split(/\s+/) };
  // Nothing new is left to ask: the sub-goal itself (the machine's no-progress check ends the loop).
  const keywords = tokens(subGoal).filter((t) => !STOP_WORDS.has(t));
  return { query: subGoal, strategy: 'simplification', keywords };
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
