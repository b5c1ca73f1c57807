import { defineOfflineHandler, classifyQuestion, readAnswer, passagesVar as passages, stringsVar as strings, textVar as text } from '@multihop/offline-model';
import { STOP_WORDS, capitalisedSpans, coveredBy, quotedTitles, terms, tokens } from '@multihop/lexical';
import { par2EscPrompt, par2PlannerPrompt, par2QueryFormulatorPrompt, par2WriterPrompt } from '../prompts';

/** The question's words without function words, in order: a keyword query. */
function keywords(question: string): string {
  return tokens(question)
    .filter((t) => !STOP_WORDS.has(t))
    .join(' ');
}

/**
 * Planner: complementary searches from the question's own parts: the whole question, each
 * entity it names with the relation words around it, and the keywords alone. Deterministic;
 * duplicates removed; at most `count`.
 */
export const par2Planner = defineOfflineHandler(par2PlannerPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-planner');
  const count = typeof vars['count'] === 'number' && vars['count'] > 0 ? vars['count'] : 5;
  const shape = classifyQuestion(question);
  const relation = tokens(question)
    .filter((t) => !STOP_WORDS.has(t) && !shape.entities.some((e) => tokens(e).includes(t)))
    .join(' ');
  const searches: Array<{ reason: string; query: string }> = [{ reason: 'The question as asked.', query: question }];
  for (const entity of [...quotedTitles(question), ...shape.entities]) {
    searches.push({ reason: `Facts about ${entity}, which the question names.`, query: `${entity} ${relation}`.trim() });
    searches.push({ reason: `The passage about ${entity} itself.`, query: entity });
  }
  searches.push({ reason: 'The question’s key terms.', query: keywords(question) });
  const seen = new Set<string>();
  const unique = searches.filter((s) => {
    const key = s.query.toLowerCase();
    if (!s.query.trim() || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { searches: unique.slice(0, count) };
});

export const par2Writer = defineOfflineHandler(par2WriterPrompt, (vars) => {
  const reading = readAnswer(text(vars, 'question', 'par2-writer'), passages(vars, 'passages', 'par2-writer'));
  return {
    reasoning: reading.support ? `"${reading.support.passage.title}" states: ${reading.support.sentence}` : 'The evidence does not support an answer.',
    answer: reading.answer,
  };
});

/**
 * ESC: STOP when the sentence the answer was read from, with its title, covers at least half
 * of the question's weighted terms; otherwise CONTINUE, asking for the entity that sentence
 * introduced (the bridge) together with the question terms the evidence has not covered.
 */
export const par2Esc = defineOfflineHandler(par2EscPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-esc');
  const pool = passages(vars, 'passages', 'par2-esc');
  const reading = readAnswer(question, pool);
  if (reading.support && reading.confidence >= 0.5) {
    return { decision: 'STOP', query: '', rationale: `"${reading.support.passage.title}" supports the answer (coverage ${reading.confidence.toFixed(2)}).` };
  }
  const questionTerms = new Set(terms(question));
  const bridge = reading.support ? capitalisedSpans(reading.support.sentence).find((s) => !coveredBy(s, questionTerms)) : undefined;
  const covered = new Set(terms(pool.map((p) => `${p.title} ${p.text}`).join(' ')));
  const missing = tokens(question).filter((t) => !STOP_WORDS.has(t) && !covered.has(terms(t)[0] ?? t));
  // Continue only when there is something left to look for: a question word no passage has, or
  // a bridge entity whose own passage is not in the context yet. Otherwise more retrieval cannot
  // add evidence, and the answer stands on what is there.
  const bridgeMissing = bridge !== undefined && !pool.some((p) => coveredBy(bridge, new Set(terms(p.title))));
  // Common words may appear in no passage at all; the entities the question names must.
  const missingEntities = classifyQuestion(question).entities.filter((e) => !coveredBy(e, covered));
  if (reading.support && missingEntities.length === 0 && !bridgeMissing) {
    return {
      decision: 'STOP',
      query: '',
      rationale: `Every entity the question names is in the evidence${bridge ? ` and "${bridge}" has its passage` : ''}; further retrieval would add nothing (coverage ${reading.confidence.toFixed(2)}).`,
    };
  }
  const query = [bridgeMissing ? bridge : undefined, ...missing].filter(Boolean).join(' ') || keywords(question);
  return {
    decision: 'CONTINUE',
    query,
    rationale: `The evidence covers ${reading.confidence.toFixed(2)} of the question${missing.length ? `; nothing mentions ${missing.join(', ')}` : ''}.`,
  };
});

/** Query formulator: the controller's suggestion, unless already run; then the suggestion with the question's keywords. */
export const par2QueryFormulator = defineOfflineHandler(par2QueryFormulatorPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-query-formulator');
  const suggestion = typeof vars['suggestion'] === 'string' ? vars['suggestion'].trim() : '';
  const previous = new Set(strings(vars, 'previousQueries').map((q) => q.toLowerCase()));
  const candidates = [suggestion, `${suggestion} ${keywords(question)}`.trim(), keywords(question), question];
  const query = candidates.find((q) => q && !previous.has(q.toLowerCase())) ?? `${question} ${previous.size}`;
  return { query };
});
