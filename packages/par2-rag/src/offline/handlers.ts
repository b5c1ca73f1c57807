import { alreadySearched, defineOfflineHandler, classifyQuestion, missingFacts, readAnswer, readByHops, passagesVar as passages, stringsVar as strings, textVar as text } from '@multihop/offline-model';
import { STOP_WORDS, quotedTitles, tokens } from '@multihop/lexical';
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

/**
 * Writer: follows the question's chain through the evidence (offline-model's `readByHops`): each
 * hop is read with the previous hop's answer in place, and when every hop is answered the last
 * hop's answer is the response, its reasoning the sentence each hop rests on. So a chain hop that
 * brings the passage of the bridge entity changes the response, as the paper's writer refines its
 * draft with each hop's evidence. A question of one hop, or a chain the evidence does not close
 * yet, is answered by one reading of the whole question over the pooled passages.
 */
export const par2Writer = defineOfflineHandler(par2WriterPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-writer');
  const pool = passages(vars, 'passages', 'par2-writer');
  const chain = readByHops(question, pool);
  if (chain.hops.length >= 2 && chain.answer !== undefined) {
    return {
      reasoning: chain.hops.map((h, i) => `Hop ${i + 1} (${h.step}): "${h.reading.support!.passage.title}" states: ${h.reading.support!.sentence}`).join(' '),
      answer: chain.answer,
    };
  }
  const reading = readAnswer(question, pool);
  return {
    reasoning: reading.support ? `"${reading.support.passage.title}" states: ${reading.support.sentence}` : 'The evidence does not support an answer.',
    answer: reading.answer,
  };
});

/**
 * ESC: asks for what the evidence still lacks, never for a search already run. What is missing
 * (offline-model's `missingFacts`): a hop of the question's chain the passages do not answer, or
 * the passage of the entity a hop leads to; an entity the question names with no passage; the
 * passage of the bridge the supporting sentence introduces; question words nothing mentions.
 * STOP when the sentence the answer was read from covers the question well and no hop is open,
 * when nothing is missing, or when every search for what is missing has run already.
 */
export const par2Esc = defineOfflineHandler(par2EscPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-esc');
  const pool = passages(vars, 'passages', 'par2-esc');
  const issued = strings(vars, 'previousQueries');
  const reading = readAnswer(question, pool);
  const missing = missingFacts(question, pool);
  const openHop = missing.find((m) => m.reason.startsWith('hop '));
  if (reading.support && reading.confidence >= 0.5 && !openHop) {
    return { decision: 'STOP', query: '', rationale: `"${reading.support.passage.title}" supports the answer (coverage ${reading.confidence.toFixed(2)}).` };
  }
  if (missing.length === 0) {
    return { decision: 'STOP', query: '', rationale: `Nothing the question asks about is missing from the evidence (coverage ${reading.confidence.toFixed(2)}).` };
  }
  const next = missing.find((m) => !alreadySearched(m.query, issued));
  if (!next) {
    return {
      decision: 'STOP',
      query: '',
      rationale: `Still missing: ${missing.map((m) => m.reason).join('; ')}; every search for it has run, so more retrieval would repeat itself.`,
    };
  }
  return { decision: 'CONTINUE', query: next.query, rationale: `Missing: ${next.reason} (coverage ${reading.confidence.toFixed(2)}).` };
});

/** Query formulator: the controller's suggestion, unless a search with the same terms ran; then the suggestion with the question's keywords. */
export const par2QueryFormulator = defineOfflineHandler(par2QueryFormulatorPrompt, (vars) => {
  const question = text(vars, 'question', 'par2-query-formulator');
  const suggestion = typeof vars['suggestion'] === 'string' ? vars['suggestion'].trim() : '';
  const previous = strings(vars, 'previousQueries');
  const candidates = [suggestion, `${suggestion} ${keywords(question)}`.trim(), keywords(question), question];
  // Nothing new to ask: the suggestion as it is (the graph stops a repeated query for want of progress).
  const query = candidates.find((q) => q && !alreadySearched(q, previous)) ?? (suggestion || question);
  return { query };
});
