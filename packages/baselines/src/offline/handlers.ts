import { alreadySearched, defineOfflineHandler, classifyQuestion, missingFacts, rankSentences, readAnswer, passagesVar as passages, stringsVar as strings, textVar as text } from '@multihop/offline-model';
import { capitalisedSpans, coveredBy, terms } from '@multihop/lexical';
import { chainOfThoughtPrompt, directPrompt, ircotStepPrompt, ragAnswerPrompt, reactStepPrompt } from '../prompts';

/**
 * Without passages the offline model knows nothing: it gives the one guess the question's form
 * allows (an offered option, "yes"), else says it does not know. Its direct/CoT scores are
 * therefore a floor, which is what they should be for a model with no knowledge.
 */
function guess(question: string): string {
  const shape = classifyQuestion(question);
  if (shape.type === 'choice') return shape.options[0] ?? 'unknown';
  if (shape.type === 'yes-no') return 'yes';
  return 'unknown';
}

export const direct = defineOfflineHandler(directPrompt, (vars) => ({ answer: guess(text(vars, 'question', 'direct')) }));

export const chainOfThought = defineOfflineHandler(chainOfThoughtPrompt, (vars) => {
  const question = text(vars, 'question', 'cot');
  const shape = classifyQuestion(question);
  return {
    reasoning: `The question asks for a ${shape.type} answer${shape.entities.length ? ` about ${shape.entities.join(', ')}` : ''}; the offline model has no knowledge beyond given passages, so it can only guess from the question's form.`,
    answer: guess(question),
  };
});

export const ragAnswer = defineOfflineHandler(ragAnswerPrompt, (vars) => {
  const question = text(vars, 'question', 'rag-answer');
  const reading = readAnswer(question, passages(vars, 'passages', 'rag-answer'));
  return {
    reasoning: reading.support ? `"${reading.support.passage.title}" says: ${reading.support.sentence}` : 'No passage supports an answer.',
    answer: reading.answer,
  };
});

/**
 * IRCoT: each step adds the best-supported sentence not yet in the chain (it becomes the next
 * query, so it carries the bridge entity to the next hop); the chain states the answer once
 * the reading covers the question well, or after three sentences.
 */
export const ircotStep = defineOfflineHandler(ircotStepPrompt, (vars) => {
  const question = text(vars, 'question', 'ircot');
  const pool = passages(vars, 'passages', 'ircot');
  const thoughts = strings(vars, 'thoughts');
  const reading = readAnswer(question, pool);
  if (pool.length > 0 && (thoughts.length >= 3 || (thoughts.length >= 1 && reading.confidence >= 0.5))) {
    return { thought: `So the answer is: ${reading.answer}.`, answer: reading.answer };
  }
  const used = new Set(thoughts);
  const next = rankSentences(`${question} ${thoughts.at(-1) ?? ''}`, pool).find((s) => !used.has(s.sentence) && s.score > 0);
  if (!next) return { thought: `So the answer is: ${reading.answer}.`, answer: reading.answer };
  return { thought: next.sentence, answer: null };
});

/**
 * ReAct: search the question first; after each observation, finish when the reading covers
 * the question well (or after three searches), else search for the entity the observation
 * introduced together with what the question still asks; when that search ran already, for
 * something else the observations lack (offline-model's `missingFacts`); never a search made before.
 */
export const reactStep = defineOfflineHandler(reactStepPrompt, (vars) => {
  const question = text(vars, 'question', 'react');
  const steps = Array.isArray(vars['steps']) ? (vars['steps'] as Array<{ action?: string; input?: string; observation?: string }>) : [];
  if (steps.length === 0) return { thought: 'I need passages about the question first.', action: 'search', input: question };
  const observed = steps.map((s, i) => ({ id: String(i), title: '', text: s.observation ?? '' })).filter((p) => p.text);
  const reading = readAnswer(question, observed);
  const searches = steps.filter((s) => s.action === 'search').length;
  if (reading.confidence >= 0.5 || searches >= 3 || !reading.support) {
    return { thought: `The observations support the answer ${reading.answer}.`, action: 'finish', input: reading.answer };
  }
  const questionTerms = new Set(terms(question));
  const bridge = capitalisedSpans(reading.support.sentence).find((s) => !coveredBy(s, questionTerms));
  const seen = new Set(terms(observed.map((p) => p.text).join(' ')));
  const missing = [...questionTerms].filter((t) => !seen.has(t));
  const first = [bridge, ...missing].filter(Boolean).join(' ') || question;
  const asked = steps.filter((s) => s.action === 'search').map((s) => s.input ?? '');
  if (!alreadySearched(first, asked)) return { thought: `${bridge ?? 'The passages'} may lead to the rest of the answer.`, action: 'search', input: first };
  // That search ran: look for something else the observations lack, never a search already made.
  const other = missingFacts(question, observed).find((m) => !alreadySearched(m.query, asked));
  if (other) return { thought: `Still missing: ${other.reason}.`, action: 'search', input: other.query };
  return { thought: 'Searching again would repeat myself; I answer with what I have.', action: 'finish', input: reading.answer };
});
