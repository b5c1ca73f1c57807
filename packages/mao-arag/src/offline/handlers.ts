import { classifyQuestion, comparedThings, defineOfflineHandler, namedEntities, passagesVar, rankSentences, readAnswer, settleComparison, textVar } from '@multihop/offline-model';
import { STOP_WORDS, decomposeQuestion, tokens } from '@multihop/lexical';
import {
  maoAnswerPrompt,
  maoDecomposeParallelPrompt,
  maoDecomposeSerialPrompt,
  maoDocumentSelectPrompt,
  maoPlannerPrompt,
  maoQueryRewritePrompt,
  maoReviseSerialPrompt,
  maoSubPlannerPrompt,
  maoSummarisePrompt,
} from '../prompts';
import { TOP_LEVEL_WORKFLOWS } from '../workflowSpace';

interface TrajectoryEntry {
  subGoal: string;
  answer: string;
}

function trajectoryOf(vars: Record<string, unknown>): TrajectoryEntry[] {
  const value = vars['trajectory'];
  return Array.isArray(value) ? value.map((e) => ({ subGoal: String((e as TrajectoryEntry).subGoal ?? ''), answer: String((e as TrajectoryEntry).answer ?? '') })) : [];
}

const countOf = (vars: Record<string, unknown>) => (typeof vars['count'] === 'number' && vars['count'] > 0 ? vars['count'] : 4);


const COMPARISON = /\b(or|both|same|either|neither)\b|\b\w+er than\b/i;
const PLACEHOLDER = /\[[^\]]*? from step (\d+)\]/g;

/** A stable small hash of a string, to spread rollout samples over the workflow space. */
function hashOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/**
 * The untrained planner, as a rule of thumb reads the question: a comparison of two named
 * things → QDP; a question whose wording nests a description (decomposeQuestion finds more
 * than one step) → QDS; anything else → the full pipeline QR,R,DS,AG. It spends freely, as an
 * untrained planner does; the learned policy is what weighs cost. On a sub-question's turn:
 * R,AG. With a `sample` variable above 0 (rollout groups), sample i is a different workflow of
 * the space, so a group of G candidates has G distinct actions.
 */
export const maoPlanner = defineOfflineHandler([maoPlannerPrompt, maoSubPlannerPrompt], (vars, request) => {
  const question = textVar(vars, 'question', 'mao-arag-planner');
  if (request.promptId === maoSubPlannerPrompt.id) return { workflow: 'R,AG' };
  const sample = typeof vars['sample'] === 'number' ? vars['sample'] : 0;
  if (sample > 0) return { workflow: TOP_LEVEL_WORKFLOWS[(hashOf(question) + sample) % TOP_LEVEL_WORKFLOWS.length]!.join(',') };
  const shape = classifyQuestion(question);
  const compares = shape.type === 'choice' || (shape.type === 'yes-no' && COMPARISON.test(question));
  if (compares && comparedThings(question).length >= 2) return { workflow: 'QDP' };
  if (decomposeQuestion(question).length > 1) return { workflow: 'QDS' };
  return { workflow: 'QR,R,DS,AG' };
});

/** QR: the question's content words, entities kept whole: a keyword query. */
export const maoQueryRewriter = defineOfflineHandler(maoQueryRewritePrompt, (vars) => {
  const question = textVar(vars, 'question', 'mao-arag-qr');
  const entities = namedEntities(question);
  const inEntity = new Set(entities.flatMap((e) => tokens(e)));
  const rest = tokens(question).filter((t) => !STOP_WORDS.has(t) && !inEntity.has(t));
  const query = [...entities, ...rest].join(' ').trim();
  return { query: query || question };
});

/** QDS: the lexical decomposition, hop by hop, later steps naming earlier ones with placeholders. */
export const maoSerialDecomposer = defineOfflineHandler(maoDecomposeSerialPrompt, (vars) => {
  const question = textVar(vars, 'question', 'mao-arag-qds');
  const steps = decomposeQuestion(question);
  const max = countOf(vars);
  // Keep the last step (it asks the question) when the cap cuts the chain.
  const kept = steps.length > max ? [...steps.slice(0, max - 1), steps.at(-1)!] : steps;
  return { subQuestions: kept };
});

/** QDS between turns: each "[… from step N]" becomes step N's answer. */
export const maoSerialReviser = defineOfflineHandler(maoReviseSerialPrompt, (vars) => {
  const draft = textVar(vars, 'subGoal', 'mao-arag-qds-revise');
  const answered = trajectoryOf(vars);
  const question = draft.replace(PLACEHOLDER, (whole, n: string) => answered[Number(n) - 1]?.answer || answered.at(-1)?.answer || whole);
  return { question };
});

/**
 * QDP: one sub-question per thing compared, asking what the comparison needs: a date for
 * earlier/later, a number for more/less, the relation's words otherwise. A question that names
 * fewer than two things splits into its lexical steps with the references dropped.
 */
export const maoParallelDecomposer = defineOfflineHandler(maoDecomposeParallelPrompt, (vars) => {
  const question = textVar(vars, 'question', 'mao-arag-qdp');
  const shape = classifyQuestion(question);
  const things = comparedThings(question);
  const max = countOf(vars);
  if (things.length < 2) {
    const steps = decomposeQuestion(question).map((s) => s.replace(PLACEHOLDER, '').replace(/\s+/g, ' ').trim());
    return { subQuestions: steps.slice(0, max) };
  }
  const inThings = new Set(things.flatMap((t) => tokens(t)));
  const relation = tokens(question)
    .filter((t) => !STOP_WORDS.has(t) && !inThings.has(t) && !['which', 'what', 'who', 'first', 'same', 'both', 'either', 'neither'].includes(t))
    .join(' ');
  const subQuestion = (thing: string): string => {
    // "Are A and B both X?" asks X of each; "... the same X?" asks each one's X; "first/more" asks a date or a number.
    if (shape.type === 'yes-no' && !/\bsame\b/i.test(question)) return `Is ${thing} ${relation}?`;
    const ask = shape.comparative === 'earlier' || shape.comparative === 'later' ? 'When' : shape.comparative === 'more' || shape.comparative === 'less' ? 'How many' : 'What';
    return `${ask} ${relation} ${thing}?`;
  };
  return { subQuestions: things.slice(0, max).map((thing) => subQuestion(thing).replace(/\s+/g, ' ')) };
});


/** DS: the passages with a sentence scoring at least half the best sentence's overlap with the question. */
export const maoDocumentSelector = defineOfflineHandler(maoDocumentSelectPrompt, (vars) => {
  const question = textVar(vars, 'question', 'mao-arag-ds');
  const raw = vars['candidates'];
  const candidates = Array.isArray(raw) ? raw.map((c, i) => ({ id: String((c as { index?: number }).index ?? i), title: String((c as { title?: string }).title ?? ''), text: String((c as { text?: string }).text ?? '') })) : [];
  const ranked = rankSentences(question, candidates);
  const best = ranked[0]?.score ?? 0;
  if (best <= 0) return { keep: candidates.map((c) => Number(c.id)) };
  const keep = new Set(ranked.filter((s) => s.score >= 0.5 * best).map((s) => Number(s.passage.id)));
  return { keep: [...keep].sort((a, b) => a - b) };
});

/** AG: the lexical reader over the turn's passages (nothing retrieved: the reader's no-evidence guess). */
export const maoAnswerGenerator = defineOfflineHandler(maoAnswerPrompt, (vars) => {
  const reading = readAnswer(textVar(vars, 'question', 'mao-arag-ag'), passagesVar(vars, 'passages', 'mao-arag-ag'));
  return { answer: reading.answer };
});


/**
 * AS: a comparison settled from the sub-answers (the option with the earlier or later year,
 * the larger or smaller number; "same"/"both" questions by whether the answers agree), else the
 * last sub-answer, which a serial chain ends on.
 */
export const maoAnswerSummariser = defineOfflineHandler(maoSummarisePrompt, (vars) => {
  const question = textVar(vars, 'question', 'mao-arag-as');
  const answered = trajectoryOf(vars).filter((a) => a.answer.trim() !== '');
  const settled = settleComparison(question, answered);
  if (settled.answer) return { answer: settled.answer };
  // A comparison the sub-answers cannot settle (a value missing): one of the options is still a better guess than a stray answer.
  const shape = classifyQuestion(question);
  if (settled.pairs >= 2 && shape.type === 'choice' && shape.comparative) return { answer: comparedThings(question)[0]! };
  return { answer: answered.at(-1)?.answer ?? '' };
});
