import { mulberry32 } from '@multihop/metrics';
import type { ProviderRequest } from '@multihop/core';
import { classifyQuestion, comparedThings, defineOfflineHandler, missingFacts, namedEntities, passagesVar, rankSentences, readAnswer, settleComparison, textVar } from '@multihop/offline-model';
import { STOP_WORDS, decomposeQuestion, tokens } from '@multihop/lexical';
import { insightOverlap, QUERY_TYPES, type Complexity, type QueryType } from '../experience';
import { heraBlamePrompt, heraContrastPrompt, heraLibraryPrompt } from '../evolve/prompts';
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

/** The system message of the call: RoPE's evolved rules live there; the offline agents act on the axis tags they carry. */
const systemOf = (request: ProviderRequest | undefined) => request?.messages.find((m) => m.role === 'system')?.content ?? '';
const has = (request: ProviderRequest | undefined, tag: string) => systemOf(request).includes(`[${tag}]`);

const COMPARISON = /\b(or|both|same|either|neither)\b|\b\w+er than\b/i;
const PLACEHOLDER = /\[[^\]]*? from step (\d+)\]/g;



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
 * The offline orchestrator's topologies, by name:
 *   decompose-parallel (comparison / intersection): decompose, one Retriever and Answer Generator
 *     per compared thing in parallel, Conclude compares (hera.md Case 1's parallel-then-serial);
 *   decompose-chain (bridge): decompose, then Retriever → Answer Generator once per hop, each hop
 *     after the one it names (Case 2's serial, dependency-aware chain);
 *   validate-chain (temporal / causal / ambiguous): Retriever → Context Validator → Retriever
 *     (the missing fact) → Evidence Selector → Answer Generator;
 *   rewrite-select (single-hop): Query Rewriter → Retriever → Evidence Selector → Answer Generator;
 *   direct: Retriever → Answer Generator.
 */
export function offlineTemplates(question: string): Record<string, Step[]> {
  const n = Math.max(2, Math.min(4, comparedThings(question).length));
  const retrievers = Array.from({ length: n }, (_, i) => step(2 + i, 'Retriever', [1]));
  const answerers = Array.from({ length: n }, (_, i) => step(2 + n + i, 'Answer Generator', [2 + i]));
  const hops = Math.max(2, Math.min(4, decomposeQuestion(question).length));
  const chainSteps: Step[] = [step(1, 'Query Decomposer', [])];
  for (let h = 0; h < hops; h += 1) {
    const r = 2 + 2 * h;
    chainSteps.push(step(r, 'Retriever', [r - 1]), step(r + 1, 'Answer Generator', [r]));
  }
  return {
    'decompose-parallel': [step(1, 'Query Decomposer', []), ...retrievers, ...answerers, step(2 + 2 * n, 'Conclude Agent', answerers.map((a) => Number(a.step)))],
    'decompose-chain': chainSteps,
    'validate-chain': [step(1, 'Retriever', []), step(2, 'Context Validator', [1]), step(3, 'Retriever', [2]), step(4, 'Evidence Selector', [3]), step(5, 'Answer Generator', [4])],
    'rewrite-select': [step(1, 'Query Rewriter', []), step(2, 'Retriever', [1]), step(3, 'Evidence Selector', [2]), step(4, 'Answer Generator', [3])],
    direct: [step(1, 'Retriever', []), step(2, 'Answer Generator', [1])],
  };
}

const TEMPLATE_OF: Record<QueryType, string> = {
  comparison: 'decompose-parallel',
  intersection: 'decompose-parallel',
  bridge: 'decompose-chain',
  temporal: 'validate-chain',
  causal: 'validate-chain',
  ambiguous: 'validate-chain',
  'single-hop': 'rewrite-select',
};

/** A topology's agents in step order, "A → B → C": how the offline Reflect Agent names a topology in an insight. */
export const chainOf = (order: ReadonlyArray<{ agent?: string }>) => order.map((s) => s.agent ?? '?').join(' → ');

const PREFER = /prefer the topology (.+?) over /;

/** The topology an insight recommends ("prefer the topology A → B → C over …"): a named template with that chain, else the chain itself in sequence. */
function preferredTopology(question: string, insight: string): Step[] | undefined {
  const m = PREFER.exec(insight);
  if (!m) return undefined;
  const chain = m[1]!.trim();
  const template = Object.values(offlineTemplates(question)).find((t) => chainOf(t) === chain);
  if (template) return template;
  const agents = chain.split(' → ').map((a) => a.trim());
  if (agents.length === 0 || agents.length > 12) return undefined;
  return agents.map((a, i) => step(i + 1, a, i === 0 ? [] : [i]));
}

/**
 * The offline orchestrator: the topology of the highest-utility retrieved insight that names one
 * (the library steers it, Algorithm 4); else the template of the type read from the profile the
 * prompt carries (`analysis` starts with the type) or from the question. With `sample` k > 0
 * (group rollouts), a seeded draw among the five templates instead: the exploration a
 * temperature of 0.9 gives a real orchestrator.
 */
export function offlineTopology(question: string, analysis = '', memory: unknown = [], sample = 0): HeraTopologyReply {
  const stated = QUERY_TYPES.find((t) => analysis.trim().toLowerCase().startsWith(t));
  const type = stated ?? offlineQueryType(question);
  const templates = offlineTemplates(question);
  let order: Step[] = templates[TEMPLATE_OF[type]]!;
  let name = TEMPLATE_OF[type];
  if (Number.isInteger(sample) && sample > 0) {
    let hash = 2166136261;
    for (const ch of `${sample}:${question}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
    const names = Object.keys(templates);
    name = names[Math.floor(mulberry32(hash >>> 0)() * names.length)]!;
    order = templates[name]!;
  } else if (Array.isArray(memory)) {
    for (const e of memory as Array<{ insight?: string }>) {
      const preferred = typeof e?.insight === 'string' ? preferredTopology(question, e.insight) : undefined;
      if (preferred) {
        order = preferred;
        name = 'from experience';
        break;
      }
    }
  }
  const parallel = name === 'decompose-parallel';
  return { query_profile: `${type} question`, selected_agents: [...new Set(order.map((s) => s.agent))], execution_order: order, mode: parallel ? 'parallel' : 'sequential' };
}

/** The orchestrator's CHARACTERIZEQUERY: the type and complexity the wording shows. */
export const heraProfiler = defineOfflineHandler(heraProfilePrompt, (vars) => heraOfflineProfile(textVar(vars, 'question', 'hera-profiler')));

/** The orchestrator's topology (and its repair round: the type's topology again, whatever was rejected). */
export const heraOrchestrator = defineOfflineHandler([heraOrchestratePrompt, heraRepairPrompt], (vars) =>
  offlineTopology(textVar(vars, 'question', 'hera-orchestrator'), typeof vars['analysis'] === 'string' ? vars['analysis'] : '', vars['memory'], typeof vars['sample'] === 'number' ? vars['sample'] : 0),
);

/** Query Decomposer: one sub-question per compared thing, else the lexical chain with placeholders. */
export const heraDecomposer = defineOfflineHandler(heraDecomposePrompt, (vars, request) => {
  const question = textVar(vars, 'question', 'hera-decomposer');
  // [efficiency]: at most two sub-questions.
  const max = Math.min(has(request, 'efficiency') ? 2 : Number.POSITIVE_INFINITY, typeof vars['count'] === 'number' && vars['count'] > 0 ? vars['count'] : 4);
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
export const heraRetriever = defineOfflineHandler(heraRetrievePrompt, (vars, request) => {
  const subGoal = textVar(vars, 'subGoal', 'hera-retriever').replace(PLACEHOLDER, '').replace(/\s+/g, ' ').trim();
  const query = subGoal || textVar(vars, 'question', 'hera-retriever');
  // [thoroughness]: the query's entities the sub-question leaves out join the search.
  if (has(request, 'thoroughness')) {
    const missing = namedEntities(textVar(vars, 'question', 'hera-retriever')).filter((e) => !query.toLowerCase().includes(e.toLowerCase()));
    return { query: [query, ...missing].join(' ') };
  }
  return { query };
});

/** Query Rewriter: the entities whole, then the other content words. */
export const heraRewriter = defineOfflineHandler(heraRewritePrompt, (vars) => {
  const question = textVar(vars, 'query', 'hera-rewriter');
  const entities = namedEntities(question);
  const inEntity = new Set(entities.flatMap((e) => tokens(e)));
  const rest = tokens(question).filter((t) => !STOP_WORDS.has(t) && !inEntity.has(t));
  return { query: [...entities, ...rest].join(' ').trim() || question };
});

/** Evidence Selector: passages with a sentence scoring at least half the best sentence's overlap with the question. */
export const heraSelector = defineOfflineHandler(heraSelectPrompt, (vars, request) => {
  const question = textVar(vars, 'question', 'hera-selector');
  const raw = vars['candidates'];
  const candidates = Array.isArray(raw) ? raw.map((c, i) => ({ id: String((c as { index?: number }).index ?? i), title: String((c as { title?: string }).title ?? ''), text: String((c as { text?: string }).text ?? '') })) : [];
  // [risk sensitivity]: keep the evidence rather than drop it.
  if (has(request, 'risk sensitivity')) return { keep: candidates.map((c) => Number(c.id)) };
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
export const heraAnswerer = defineOfflineHandler(heraAnswerPrompt, (vars, request) => {
  const subGoal = textVar(vars, 'subGoal', 'hera-answerer');
  const passages = passagesVar(vars, 'passages', 'hera-answerer');
  const answer = readAnswer(subGoal, passages).answer;
  // [error correction]: no answer to the sub-question, so the query itself is read.
  if (has(request, 'error correction') && answer.trim() === '') return { answer: readAnswer(textVar(vars, 'question', 'hera-answerer'), passages).answer };
  return { answer };
});

interface Answered {
  subGoal: string;
  answer: string;
  step?: string;
}


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
  const settled = settleComparison(question, subs.map((a) => ({ subGoal: String(a.subGoal), answer: a.answer })));
  if (settled.answer) return { answer: settled.answer };
  const things = comparedThings(question);
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
  const worst = [...runs].reverse().find((r) => chain(r) !== chain(best)) ?? runs.at(-1)!;
  if (chain(worst) === chain(best)) {
    return { success_factors: [`${chain(best)} reached F1 ${best.f1!.toFixed(2)}`], failure_modes: [`the same topology reached F1 ${worst.f1!.toFixed(2)}`], insights: [{ query_type, insight: `For ${query_type} questions, the topology ${chain(best)} is unstable: check its answer against the evidence.` }] };
  }
  return {
    success_factors: [`${chain(best)} reached F1 ${best.f1!.toFixed(2)} with ${best.tokens ?? 0} tokens`],
    failure_modes: [`${chain(worst)} reached F1 ${worst.f1!.toFixed(2)}`],
    insights: [{ query_type, insight: `For ${query_type} questions, prefer the topology ${chain(best)} over ${chain(worst)}.` }],
  };
});

// ---------------------------------------------------------------------------------------------
// The learning loop's roles

interface LibraryRow {
  id: string;
  query_type: string;
  insight: string;
  utility: number;
}

const preference = (insight: string) => {
  const m = /prefer the topology (.+?) over (.+?)\.?$/.exec(insight);
  return m ? { better: m[1]!.trim(), worse: m[2]!.trim() } : undefined;
};

/**
 * Experience library update (Algorithm 3), offline: the entries of the insight's query type that
 * share at least 30% of its content words are its matches. None: ADD. A match preferring the
 * opposite topology: PRUNE it (the loop prunes only low-utility ones). A near-repeat (≥ 80%):
 * KEEP. Otherwise the closest match and the insight are complementary: MERGE, the worse
 * topologies joined ("over A and over B").
 */
export const heraLibrary = defineOfflineHandler(heraLibraryPrompt, (vars) => {
  const library = ((Array.isArray(vars['memory']) ? vars['memory'] : []) as LibraryRow[]).filter((e) => typeof e?.insight === 'string');
  const insights = ((Array.isArray(vars['trajectory']) ? vars['trajectory'] : []) as Array<{ query_type: string; insight: string }>).filter((z) => typeof z?.insight === 'string');
  return {
    operations: insights.map((z) => {
      const matches = library
        .filter((e) => e.query_type === z.query_type)
        .map((e) => ({ e, overlap: insightOverlap(e.insight, z.insight) }))
        .filter((m) => m.overlap >= 0.3)
        .sort((a, b) => b.overlap - a.overlap);
      if (matches.length === 0) return { operation: 'ADD' as const, new_insight: z.insight, target_entry_ids: [], merged_insight: null, rationale: 'no entry of this query type covers it' };
      const mine = preference(z.insight);
      const conflicting = matches.filter((m) => {
        const theirs = preference(m.e.insight);
        return mine && theirs && (theirs.better === mine.worse || theirs.worse.includes(mine.better));
      });
      if (conflicting.length > 0) return { operation: 'PRUNE' as const, new_insight: z.insight, target_entry_ids: conflicting.map((m) => m.e.id), merged_insight: null, rationale: 'an entry recommends the topology this group found worse' };
      const top = matches[0]!;
      const covered = (() => { const theirs = preference(top.e.insight); return mine && theirs && theirs.better === mine.better && theirs.worse.includes(mine.worse); })();
      if (top.overlap >= 0.8 || covered) return { operation: 'KEEP' as const, new_insight: z.insight, target_entry_ids: [top.e.id], merged_insight: null, rationale: `already covered by ${top.e.id}` };
      const theirs = preference(top.e.insight);
      const merged = mine && theirs && theirs.better === mine.better && !theirs.worse.includes(mine.worse)
        ? `For ${z.query_type} questions, prefer the topology ${mine.better} over ${theirs.worse} and over ${mine.worse}.`
        : `${top.e.insight} ${z.insight}`;
      return { operation: 'MERGE' as const, new_insight: z.insight, target_entry_ids: [top.e.id], merged_insight: merged, rationale: `complements ${top.e.id}` };
    }),
  };
});

const goldIn = (gold: string, passages: ReadonlyArray<{ text?: string; title?: string }>) => {
  const want = tokens(gold).filter((t) => !STOP_WORDS.has(t));
  if (want.length === 0) return false;
  return passages.some((p) => {
    const have = new Set(tokens(`${p.title ?? ''} ${p.text ?? ''}`));
    return want.every((t) => have.has(t));
  });
};

/**
 * IDENTIFYFAILEDAGENTS, offline: the gold answer in no passage gathered blames the search (the
 * Retriever; the Query Rewriter or Decomposer when they wrote what it searched); in a passage,
 * the agent that answered (the Conclude Agent when it ran, else the Answer Generator).
 */
export const heraBlame = defineOfflineHandler(heraBlamePrompt, (vars) => {
  const gold = typeof vars['gold'] === 'string' ? vars['gold'] : '';
  const passages = (Array.isArray(vars['passages']) ? vars['passages'] : []) as Array<{ title?: string; text?: string }>;
  const plan = vars['plan'] as { selected_agents?: unknown } | undefined;
  const agents = (Array.isArray(plan?.selected_agents) ? plan.selected_agents : []).map(String);
  if (!goldIn(gold, passages)) return { agent: 'Retriever', reason: 'the gold answer is in no passage the trajectory gathered' };
  return agents.includes('Conclude Agent') ? { agent: 'Conclude Agent', reason: 'the evidence held the answer; the conclusion missed it' } : { agent: 'Answer Generator', reason: 'the evidence held the answer; the answer missed it' };
});

interface VariantRow {
  axis?: string;
  variant_prompt?: string;
  f1?: number;
  tokens?: number;
}

/**
 * RoPE's contrastive analysis, offline: the best variant (F1 ↓, tokens ↑) against the original.
 * When it beat the original, its axis's directive is the operational rule; with two or more
 * buffered failures, a principle states the axis for every query. Nothing beat it: no change.
 */
export const heraRope = defineOfflineHandler(heraContrastPrompt, (vars) => {
  const agent = (vars['plan'] ?? {}) as { baseline_f1?: unknown; original_prompt?: unknown };
  const baseline = typeof agent.baseline_f1 === 'number' ? agent.baseline_f1 : 0;
  const original = typeof agent.original_prompt === 'string' ? agent.original_prompt : '';
  const results = ((Array.isArray(vars['candidates']) ? vars['candidates'] : []) as VariantRow[]).filter((r) => typeof r?.f1 === 'number');
  const failures = Array.isArray(vars['memory']) ? vars['memory'].length : 0;
  const best = [...results].sort((a, b) => b.f1! - a.f1! || (a.tokens ?? 0) - (b.tokens ?? 0))[0];
  if (!best || best.f1! <= baseline) return { operational_rules: [], behavioral_principles: [], updated_prompt: original };
  const directive = String(best.variant_prompt ?? '').split('\n').at(-1) ?? '';
  const worst = [...results].sort((a, b) => a.f1! - b.f1!)[0];
  const rule = { rule: directive, derived_from: `${best.axis} (F1 ${best.f1!.toFixed(2)}) vs the original (F1 ${baseline.toFixed(2)})${worst && worst !== best ? ` and ${worst.axis} (F1 ${worst.f1!.toFixed(2)})` : ''}` };
  const principles = failures >= 2 ? [{ principle: `[${best.axis}] Across queries of this kind: ${directive.replace(/^\[[^\]]+\]\s*/, '')}`, derived_from: `${failures} recent failures of this agent` }] : [];
  return { operational_rules: [rule], behavioral_principles: principles, updated_prompt: `${original}\n${directive}` };
});
