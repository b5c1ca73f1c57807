import { decomposeQuestion, STOP_WORDS, terms, tokens } from '@multihop/lexical';
import { classifyQuestion, defineOfflineHandler, readAnswer, readByHops, rankSentences, textVar } from '@multihop/offline-model';
import { generatorPrompt, queryRewriterPrompt, selectorPrompt, type CandidateDocument } from '../prompts';

/**
 * A seeded draw for rollouts: the offline model is deterministic, so a caller that wants several
 * episodes passes `sample`; 0 (or none) is the greedy reply.
 */
function sampler(vars: Record<string, unknown>, key: string): (() => number) | undefined {
  const sample = typeof vars['sample'] === 'number' ? vars['sample'] : 0;
  if (!Number.isInteger(sample) || sample <= 0) return undefined;
  let hash = 2166136261;
  for (const ch of `${sample}:${key}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619);
  let state = hash >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function documentsVar(vars: Record<string, unknown>, name: string, role: string): CandidateDocument[] {
  const docs = vars[name];
  if (!Array.isArray(docs)) throw new Error(`offline ${role}: variable "${name}" must be the documents`);
  return (docs as Array<Partial<CandidateDocument>>).map((d, i) => ({ id: d.id ?? String(i), title: d.title ?? '', text: d.text ?? '' }));
}

const PLACEHOLDER = /\[([^\]]*?) from step (\d+)\]/g;
const WH_START = /^(?:(?:in |of |for )?(?:who|whom|whose|what|which|when|where|why|how(?: many| much| old| long)?)\s+)?(?:is|are|was|were|do|does|did)\s+|^(?:in |of |for )?(?:who|whom|whose|what|which|when|where|why|how(?: many| much| old| long)?)\s+/i;

/** A sub-question's words as a description of its answer, for a later sub-question that depends on it ("director of Jaws"). */
function describe(step: string): string {
  return step.replace(/[?.!]+$/, '').replace(WH_START, '').trim();
}

/**
 * The Query Rewriter, lexically: a comparison ("A or B", a yes/no question about several named
 * things) becomes one search per option with the question's relation words; a chain becomes its
 * hops (@multihop/lexical's decomposeQuestion), each placeholder written out as the earlier hop's
 * description so that every line can be searched on its own, as the paper's rewriter writes them;
 * anything else stays the question. At most `maxSubQuestions` lines, like an SFT-trained rewriter.
 */
export function rewriteOffline(question: string, maxSubQuestions: number): string[] {
  const shape = classifyQuestion(question);
  const named = shape.type === 'choice' ? shape.options : shape.type === 'yes-no' ? shape.entities : [];
  if (named.length >= 2) {
    const own = new Set(named.flatMap((n) => tokens(n)));
    const relation = tokens(question)
      .filter((t) => !STOP_WORDS.has(t) && !own.has(t))
      .join(' ');
    return named.slice(0, maxSubQuestions).map((n) => `${n} ${relation}`.trim());
  }
  const steps = decomposeQuestion(question);
  if (steps.length <= 1) return [question];
  const written: string[] = [];
  for (const step of steps) {
    written.push(step.replace(PLACEHOLDER, (_, _noun: string, ref: string) => describe(written[Number(ref) - 1] ?? '')));
  }
  return written.slice(0, maxSubQuestions);
}

export const mmoaQueryRewriter = defineOfflineHandler(queryRewriterPrompt, (vars) => {
  const role = queryRewriterPrompt.role;
  const question = textVar(vars, 'question', role);
  const max = typeof vars['count'] === 'number' ? vars['count'] : 4;
  const greedy = rewriteOffline(question, max);
  const rng = sampler(vars, question);
  if (!rng) return { subQuestions: greedy };
  // Other episodes: the question unrewritten, or the rewrite with the question added (which may break the limit).
  const draw = rng();
  if (draw < 0.25) return { subQuestions: [question] };
  if (draw < 0.5) return { subQuestions: [...greedy, question] };
  return { subQuestions: greedy };
});

function titleNamed(entity: string, doc: CandidateDocument): boolean {
  const title = terms(doc.title.replace(/\s*\(.*\)$/, ''));
  const named = new Set(terms(entity));
  return title.length > 0 && title.every((t) => named.has(t));
}

/**
 * The Selector, lexically: the documents a reader would need: those whose sentences answer the
 * question's hops (readByHops), the one that supports the reader's answer, the documents of
 * the three best-matching sentences, and documents titled by an entity the question names; at most four, in
 * ID order. Distractors (documents that only share words with the question) are left out.
 */
export function selectOffline(question: string, docs: readonly CandidateDocument[]): number[] {
  if (docs.length === 0) return [];
  const pool = docs.map((d, i) => ({ id: String(i), title: d.title, text: d.text }));
  const picked: number[] = [];
  const add = (id: string | undefined) => {
    const i = id === undefined ? -1 : Number(id);
    if (i >= 0 && !picked.includes(i) && picked.length < 4) picked.push(i);
  };
  for (const hop of readByHops(question, pool).hops) add(hop.reading.support?.passage.id);
  add(readAnswer(question, pool).support?.passage.id);
  // The best sentences' documents: a bridge question's second document rarely shares its words, but its first one does.
  for (const s of rankSentences(question, pool).slice(0, 3)) add(s.passage.id);
  for (const entity of classifyQuestion(question).entities) add(pool.find((d) => titleNamed(entity, d))?.id);
  return picked.sort((a, b) => a - b);
}

export const mmoaSelector = defineOfflineHandler(selectorPrompt, (vars) => {
  const role = selectorPrompt.role;
  const question = textVar(vars, 'question', role);
  const docs = documentsVar(vars, 'candidates', role);
  const picked = selectOffline(question, docs);
  const rng = sampler(vars, `${question}|${docs.map((d) => d.id).join(',')}`);
  let ids = picked;
  if (rng) {
    // Other episodes: one document fewer, one more, or (as an untrained policy might) a repeated ID.
    const draw = rng();
    if (draw < 0.25 && ids.length > 1) ids = ids.slice(0, -1);
    else if (draw < 0.5) ids = [...ids, ...docs.map((_, i) => i).filter((i) => !ids.includes(i)).slice(0, 1)];
    else if (draw < 0.6 && ids.length > 0) ids = [...ids, ids[0]!];
  }
  return { selection: ids.map((i) => `Document${i}`).join(',') };
});

/** The Generator, lexically: the reader's short answer from the documents it was given. */
export const mmoaGenerator = defineOfflineHandler(generatorPrompt, (vars) => {
  const role = generatorPrompt.role;
  const question = textVar(vars, 'question', role);
  const docs = documentsVar(vars, 'passages', role);
  const reading = readAnswer(question, docs);
  const rng = sampler(vars, `${question}|${docs.map((d) => d.id).join(',')}`);
  // Other episodes may answer with the whole supporting sentence, as an untrained generator rambles.
  if (rng && rng() < 0.25 && reading.support) return { answer: `${reading.support.sentence} Answer: ${reading.answer}` };
  return { answer: reading.answer };
});
