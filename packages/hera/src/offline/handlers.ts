import { classifyQuestion, defineOfflineHandler, missingFacts, passagesVar, rankSentences, readAnswer, textVar } from '@multihop/offline-model';
import { STOP_WORDS, capitalisedSpans, dates, decomposeQuestion, numbers, quotedTitles, tokens, yearOf } from '@multihop/lexical';
import { QUERY_TYPES, type Complexity, type QueryType } from '../experience';
import {
  heraAnswerPrompt,
  heraConcludePrompt,
  heraDecomposePrompt,
  heraOrchestratePrompt,
  heraProfilePrompt,
  heraReflectPrompt,
  heraRepairPrompt,
  heraRetrievePrompt,
  heraRewritePrompt,
  heraSelectPrompt,
  heraValidatePrompt,
  type HeraTopologyReply,
} from '../prompts';

const COMPARISON = /\b(or|both|same|either|neither)\b|\b\w+er than\b/i;
const PLACEHOLDER = /\[[^\]]*? from step (\d+)\]/g;

const entitiesOf = (question: string) => [...new Set([...quotedTitles(question), ...capitalisedSpans(question)])];

/** What a comparison compares: the options of "A or B?", else the named entities, "A and B" read as two. */
function comparedThings(question: string): string[] {
  const shape = classifyQuestion(question);
  if (shape.options.length >= 2) return shape.options;
  return [...new Set(entitiesOf(question).flatMap((e) => e.split(/\s+and\s+/)).map((e) => e.trim()).filter((e) => e.length > 1))];
}

/** The reasoning type the question's wording shows (the offline CHARACTERIZEQUERY). */
export function offlineQueryType(question: string): QueryType {
  const shape = classifyQuestion(question);
  const things = comparedThings(question);
  if ((shape.type === 'choice' || (shape.type === 'yes-no' && COMPARISON.test(question))) && things.length >= 2) {
    return /\b(both|same)\b/i.test(question) && shape.type === 'yes-no' ? 'intersection' : 'comparison';
  }
  if (decomposeQuestion(question).length > 1) return 'bridge';
  if (/\b(when|what year|before|after|during)\b/i.test(question) && shape.type !== 'yes-no') return 'temporal';
  if (/^why\b|\bcaus/i.test(question)) return 'causal';
  return 'single-hop';
}

function complexityOf(question: string): Complexity {
  const hops = decomposeQuestion(question).length;
  return hops >= 3 ? 'hard' : hops === 2 || comparedThings(question).length >= 2 ? 'medium' : 'easy';
}

export const heraOfflineProfile = (question: string) => {
  const query_type = offlineQueryType(question);
  const complexity = complexityOf(question);
  return { query_type, complexity, profile: `A ${complexity} ${query_type} question.` };
};

type Step = HeraTopologyReply['execution_order'][number];
const step = (n: number, agent: string, depends_on: number[]): Step => ({ step: n, agent, depends_on });

/**
 * The offline orchestrator: a topology per reasoning type, read from the profile the prompt
 * carries (`analysis` starts with the type) or from the question.
 *   comparison / intersection: decompose, one Retriever and Answer Generator per compared thing
 *     in parallel, Conclude compares (hera.md Case 1's parallel-then-serial pattern);
 *   bridge: decompose, then Retriever → Answer Generator once per hop, each hop after the one it
 *     names (Case 2's serial, dependency-aware chain);
 *   temporal / causal / ambiguous: Retriever → Context Validator → Retriever (the missing fact)
 *     → Evidence Selector → Answer Generator;
 *   single-hop: Query Rewriter → Retriever → Evidence Selector → Answer Generator.
 */
export function offlineTopology(question: string, analysis = ''): HeraTopologyReply {
  const stated = QUERY_TYPES.find((t) => analysis.trim().toLowerCase().startsWith(t));
  const type = stated ?? offlineQueryType(question);
  let order: Step[];
  if (type === 'comparison' || type === 'intersection') {
    const n = Math.max(2, Math.min(4, comparedThings(question).length));
    const retrievers = Array.from({ length: n }, (_, i) => step(2 + i, 'Retriever', [1]));
    const answerers = Array.from({ length: n }, (_, i) => step(2 + n + i, 'Answer Generator', [2 + i]));
    order = [step(1, 'Query Decomposer', []), ...retrievers, ...answerers, step(2 + 2 * n, 'Conclude Agent', answerers.map((a) => Number(a.step)))];
  } else if (type === 'bridge') {
    const hops = Math.max(2, Math.min(4, decomposeQuestion(question).length));
    order = [step(1, 'Query Decomposer', [])];
    for (let h = 0; h < hops; h += 1) {
      const r = 2 + 2 * h;
      order.push(step(r, 'Retriever', [r - 1]), step(r + 1, 'Answer Generator', [r]));
    }
  } else if (type === 'temporal' || type === 'causal' || type === 'ambiguous') {
    order = [step(1, 'Retriever', []), step(2, 'Context Validator', [1]), step(3, 'Retriever', [2]), step(4, 'Evidence Selector', [3]), step(5, 'Answer Generator', [4])];
  } else {
    order = [step(1, 'Query Rewriter', []), step(2, 'Retriever', [1]), step(3, 'Evidence Selector', [2]), step(4, 'Answer Generator', [3])];
  }
  const parallel = type === 'comparison' || type === 'intersection';
  return { query_profile: `${type} question`, selected_agents: [...new Set(order.map((s) => s.agent))], execution_order: order, mode: parallel ? 'parallel' : 'sequential' };
}

/** The orchestrator's CHARACTERIZEQUERY: the type and complexity the wording shows. */
export const heraProfiler = defineOfflineHandler(heraProfilePrompt, (vars) => heraOfflineProfile(textVar(vars, 'question', 'hera-profiler')));

/** The orchestrator's topology (and its repair round: the type's topology again, whatever was rejected). */
export const heraOrchestrator = defineOfflineHandler([heraOrchestratePrompt, heraRepairPrompt], (vars) =>
  offlineTopology(textVar(vars, 'question', 'hera-orchestrator'), typeof vars['analysis'] === 'string' ? vars['analysis'] : ''),
);

/** Query Decomposer: one sub-question per compared thing, else the lexical chain with placeholders. */
export const heraDecomposer = defineOfflineHandler(heraDecomposePrompt, (vars) => {
  const question = textVar(vars, 'question', 'hera-decomposer');
  const max = typeof vars['count'] === 'number' && vars['count'] > 0 ? vars['count'] : 4;
  const things = comparedThings(question);
  const type = offlineQueryType(question);
  if ((type === 'comparison' || type === 'intersection') && things.length >= 2) {
    const shape = classifyQuestion(question);
    const inThings = new Set(things.flatMap((t) => tokens(t)));
    const relation = tokens(question)
      .filter((t) => !STOP_WORDS.has(t) && !inThings.has(t) && !['which', 'what', 'who', 'first', 'same', 'both', 'either', 'neither'].includes(t))
      .join(' ');
    const ask = (thing: string) => {
      if (shape.type === 'yes-no' && !/\bsame\b/i.test(question)) return `Is ${thing} ${relation}?`;
      const wh = shape.comparative === 'earlier' || shape.comparative === 'later' ? 'When' : shape.comparative === 'more' || shape.comparative === 'less' ? 'How many' : 'What';
      return `${wh} ${relation} ${thing}?`;
    };
    return { subQuestions: things.slice(0, max).map((t) => ask(t).replace(/\s+/g, ' ')) };
  }
  const steps = decomposeQuestion(question);
  return { subQuestions: steps.length > max ? [...steps.slice(0, max - 1), steps.at(-1)!] : steps };
});

/** Retriever: searches the sub-question as written (BM25 drops the function words). */
export const heraRetriever = defineOfflineHandler(heraRetrievePrompt, (vars) => {
  const subGoal = textVar(vars, 'subGoal', 'hera-retriever').replace(PLACEHOLDER, '').replace(/\s+/g, ' ').trim();
  return { query: subGoal || textVar(vars, 'question', 'hera-retriever') };
});

/** Query Rewriter: the entities whole, then the other content words. */
export const heraRewriter = defineOfflineHandler(heraRewritePrompt, (vars) => {
  const question = textVar(vars, 'query', 'hera-rewriter');
  const entities = entitiesOf(question);
  const inEntity = new Set(entities.flatMap((e) => tokens(e)));
  const rest = tokens(question).filter((t) => !STOP_WORDS.has(t) && !inEntity.has(t));
  return { query: [...entities, ...rest].join(' ').trim() || question };
});

/** Evidence Selector: passages with a sentence scoring at least half the best sentence's overlap with the question. */
export const heraSelector = defineOfflineHandler(heraSelectPrompt, (vars) => {
  const question = textVar(vars, 'question', 'hera-selector');
  const raw = vars['candidates'];
  const candidates = Array.isArray(raw) ? raw.map((c, i) => ({ id: String((c as { index?: number }).index ?? i), title: String((c as { title?: string }).title ?? ''), text: String((c as { text?: string }).text ?? '') })) : [];
  const ranked = rankSentences(question, candidates);
  const best = ranked[0]?.score ?? 0;
  if (best <= 0) return { keep: candidates.map((c) => Number(c.id)) };
  return { keep: [...new Set(ranked.filter((s) => s.score >= 0.5 * best).map((s) => Number(s.passage.id)))].sort((a, b) => a - b) };
});

/** Context Validator: sufficient when the lexical check finds no missing fact; else the first missing fact as the search. */
export const heraValidator = defineOfflineHandler(heraValidatePrompt, (vars) => {
  const question = textVar(vars, 'question', 'hera-validator');
  const missing = missingFacts(question, passagesVar(vars, 'passages', 'hera-validator'));
  return missing.length === 0 ? { sufficient: true, missing: '' } : { sufficient: false, missing: missing[0]!.query };
});

/** Answer Generator: the lexical reader on the (sub-)question over the passages it received. */
export const heraAnswerer = defineOfflineHandler(heraAnswerPrompt, (vars) => {
  const subGoal = textVar(vars, 'subGoal', 'hera-answerer');
  return { answer: readAnswer(subGoal, passagesVar(vars, 'passages', 'hera-answerer')).answer };
});

interface Answered {
  subGoal: string;
  answer: string;
  step?: string;
}

const yearIn = (text: string) => dates(text).map(yearOf).find((y) => y !== undefined);
const numberIn = (text: string) => numbers(text).find((n) => !/^(1[0-9]{3}|20[0-9]{2})$/.test(n.text))?.value;
const same = (a: string, b: string) => tokens(a).join(' ') === tokens(b).join(' ');

/**
 * Conclude Agent: a comparison settled from the sub-answers (years for earlier/later, numbers
 * for more/less, agreement for "same"/"both"); else the reader over every passage when the
 * question is a comparison; else the last sub-answer (the chain's end); else the last answer.
 */
export const heraConclude = defineOfflineHandler(heraConcludePrompt, (vars) => {
  const question = textVar(vars, 'question', 'hera-conclude');
  const passages = passagesVar(vars, 'passages', 'hera-conclude');
  const raw = Array.isArray(vars['trajectory']) ? (vars['trajectory'] as Answered[]) : [];
  const answered = raw.filter((a) => typeof a.answer === 'string' && a.answer.trim() !== '');
  const subs = answered.filter((a) => a.step !== 'answer');
  const shape = classifyQuestion(question);
  const things = comparedThings(question);
  const pairs = things.flatMap((thing) => {
    const hit = subs.find((a) => String(a.subGoal).toLowerCase().includes(thing.toLowerCase()));
    return hit ? [{ thing, answer: hit.answer }] : [];
  });
  if (pairs.length >= 2) {
    if (shape.type === 'yes-no') {
      const agree = /\bsame\b/i.test(question) ? pairs.every((p) => same(p.answer, pairs[0]!.answer)) : pairs.every((p) => same(p.answer, 'yes'));
      return { answer: agree ? 'yes' : 'no' };
    }
    const pick = (value: (text: string) => number | undefined, larger: boolean) => {
      const valued = pairs.map((p) => ({ ...p, value: value(p.answer) })).filter((p): p is typeof p & { value: number } => p.value !== undefined);
      if (valued.length < 2) return undefined;
      return valued.reduce((best, p) => ((larger ? p.value > best.value : p.value < best.value) ? p : best)).thing;
    };
    const chosen = shape.comparative === 'earlier' || shape.comparative === 'later' ? pick(yearIn, shape.comparative === 'later') : shape.comparative === 'more' || shape.comparative === 'less' ? pick(numberIn, shape.comparative === 'more') : undefined;
    if (chosen) return { answer: chosen };
  }
  if (things.length >= 2 && passages.length > 0) return { answer: readAnswer(question, passages).answer };
  if (subs.length > 0) return { answer: subs.at(-1)!.answer };
  if (answered.length > 0) return { answer: answered.at(-1)!.answer };
  return { answer: readAnswer(question, passages).answer };
});

interface RunOfGroup {
  topology?: { execution_order?: Array<{ agent?: string }> };
  f1?: number;
  tokens?: number;
}

const chain = (run: RunOfGroup) => (run.topology?.execution_order ?? []).map((s) => s.agent ?? '?').join(' → ');

/**
 * Reflect Agent (group reflection): the best run's topology against the worst's, as an insight
 * for the question's reasoning type. A trajectory that is not a group of runs gives a generic insight.
 */
export const heraReflect = defineOfflineHandler(heraReflectPrompt, (vars) => {
  const question = textVar(vars, 'question', 'hera-reflect');
  const query_type = offlineQueryType(question);
  const runs = (Array.isArray(vars['trajectory']) ? (vars['trajectory'] as RunOfGroup[]) : []).filter((r) => r.topology && typeof r.f1 === 'number');
  if (runs.length < 2) {
    return { success_factors: [], failure_modes: [], insights: [{ query_type, insight: `For ${query_type} questions, retrieve evidence for every entity before answering.` }] };
  }
  const best = runs[0]!;
  const worst = runs.at(-1)!;
  return {
    success_factors: [`${chain(best)} reached F1 ${best.f1!.toFixed(2)} with ${best.tokens ?? 0} tokens`],
    failure_modes: [`${chain(worst)} reached F1 ${worst.f1!.toFixed(2)}`],
    insights: [{ query_type, insight: `For ${query_type} questions, prefer the topology ${chain(best)} over ${chain(worst)}.` }],
  };
});
