import type { Passage } from '@multihop/core';
import { STOP_WORDS, capitalisedSpans, coveredBy, decomposeQuestion, quotedTitles, stem, terms, tokens } from '@multihop/lexical';
import { readAnswer, type Reading } from './reader';

type Pool = ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>;

/** One thing the evidence lacks, as a search for it. */
export interface MissingFact {
  query: string;
  /** What is missing, for a rationale. */
  reason: string;
}

/** A search's identity: its content terms as a set (word order, case and function words aside). */
export function searchKey(query: string): string {
  return [...new Set(terms(query))].sort().join(' ');
}

/** True when a search with the same content terms already ran. */
export function alreadySearched(query: string, issued: readonly string[]): boolean {
  const key = searchKey(query);
  return key === '' || issued.some((q) => searchKey(q) === key);
}

const PLACEHOLDER = /\[([^\]]*?) from step (\d+)\]/g;

/** A sub-question as a keyword search: its words without function words and placeholders filled. */
function keywordsOf(text: string): string {
  return tokens(text)
    .filter((t) => !STOP_WORDS.has(t))
    .join(' ');
}

/** Passages whose title names the span (all of the title's content terms are the span's, or the reverse). */
function ownPassages(span: string, pool: Pool): Pool {
  const spanTerms = new Set(terms(span));
  return pool.filter((p) => {
    const title = terms(p.title.replace(/\s*\(.*\)$/, ''));
    return title.length > 0 && (title.every((t) => spanTerms.has(t)) || [...spanTerms].every((t) => title.includes(t)));
  });
}

function hasOwnPassage(span: string, pool: Pool): boolean {
  return terms(span).length === 0 || ownPassages(span, pool).length > 0;
}

/** One hop of a chain read over the evidence. */
export interface HopReading {
  /** The hop's sub-question with the earlier hops' answers filled in. */
  step: string;
  reading: Reading;
}

/** A question read hop by hop (decomposeQuestion), each hop's answer filling the next hop's placeholder. */
export interface ChainReading {
  /** The question's hops as planned, placeholders kept. */
  steps: string[];
  /** The hops the evidence answers, in order, up to the first open one. */
  hops: HopReading[];
  /**
   * The first hop the evidence does not close: `unanswered` (no sentence answers it), or
   * `no-passage` (the previous hop's answer, `lead`, which this hop is about, has no passage).
   * Undefined when every hop is answered.
   */
  open?: { index: number; step: string; kind: 'unanswered' | 'no-passage'; lead?: string };
  /** The last hop's answer when every hop is answered, else undefined. */
  answer?: string;
}

/**
 * Reads `question` hop by hop over `pool`: each hop (decomposeQuestion, innermost first) is read
 * on its own with the earlier hops' answers in place of its placeholders, as a multi-hop reader
 * that follows the chain would. A hop counts as answered when a span was read from a sentence
 * that covers the hop well, or that (with its title) names every entity of the hop, since a
 * hop's relation words are often paraphrased. A hop whose subject (the previous answer) has no
 * passage of its own is open too: the evidence reaches the bridge but not what is said about it;
 * when it has one, the hop is read in that passage.
 */
export function readByHops(question: string, pool: Pool): ChainReading {
  const steps = decomposeQuestion(question);
  const hops: HopReading[] = [];
  const answers: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!.replace(PLACEHOLDER, (_, noun: string, n: string) => answers[Number(n) - 1] || noun);
    if (i > 0 && !hasOwnPassage(answers[i - 1]!, pool) && steps[i]!.includes(`from step ${i}]`)) {
      return { steps, hops, open: { index: i, step, kind: 'no-passage', lead: answers[i - 1]! } };
    }
    // A hop about the previous hop's answer is read in that answer's own passages: what the
    // evidence says about the bridge, not the sentence that led to it again.
    const lead = i > 0 && steps[i]!.includes(`from step ${i}]`) ? ownPassages(answers[i - 1]!, pool) : [];
    const reading = readAnswer(step, lead.length > 0 ? lead : pool);
    const named =
      reading.support !== undefined &&
      [...quotedTitles(step), ...capitalisedSpans(step)].every((e) => coveredBy(e, new Set(terms(`${reading.support!.passage.title} ${reading.support!.sentence}`))));
    const found = reading.support !== undefined && (reading.confidence >= 0.5 || named || reading.settled) && reading.answer.trim() !== '' && reading.answer !== 'unknown';
    if (!found) return { steps, hops, open: { index: i, step, kind: 'unanswered' } };
    hops.push({ step, reading });
    answers.push(reading.answer);
  }
  return { steps, hops, answer: answers.at(-1) };
}

/**
 * What the evidence still lacks for `question`, most basic first, each as a search:
 *   1. a hop of the question's chain (decomposeQuestion) that the passages do not answer, with
 *      the earlier hops' answers filled in; or the passage of an intermediate answer the next hop
 *      is about;
 *   2. an entity the question names that no passage mentions, or that has no passage of its own;
 *   3. the passage of the bridge entity the best supporting sentence introduces;
 *   4. question words no passage mentions, with the entity nearest them.
 * Deterministic; the caller drops the searches already run.
 */
export function missingFacts(question: string, pool: Pool): MissingFact[] {
  const out: MissingFact[] = [];
  const poolTerms = new Set(terms(pool.map((p) => `${p.title} ${p.text}`).join(' ')));
  const entities = [...new Set([...quotedTitles(question), ...capitalisedSpans(question)])];
  const entityTerms = new Set(entities.flatMap((e) => tokens(e)));
  const relation = tokens(question).filter((t) => !STOP_WORDS.has(t) && !entityTerms.has(t));

  // 1. The chain, hop by hop.
  const chain = readByHops(question, pool);
  if (chain.steps.length >= 2 && chain.open) {
    const { index, step, kind, lead } = chain.open;
    if (kind === 'unanswered') out.push({ query: keywordsOf(step), reason: `hop ${index + 1} of ${chain.steps.length} ("${step}") is not answered by the evidence` });
    else out.push({ query: `${lead} ${keywordsOf(chain.steps[index]!.replace(PLACEHOLDER, ' '))}`.trim(), reason: `hop ${index} leads to ${lead}, which no passage is about` });
  }
  // 2. Entities the question names.
  for (const entity of entities) {
    if (!coveredBy(entity, poolTerms)) out.push({ query: `${entity} ${relation.join(' ')}`.trim(), reason: `nothing mentions ${entity}` });
    else if (!hasOwnPassage(entity, pool)) out.push({ query: entity, reason: `no passage is about ${entity}` });
  }

  // 3. The bridge the best sentence introduces.
  const reading = readAnswer(question, pool);
  if (reading.support) {
    const questionTerms = new Set(terms(question));
    const bridge = capitalisedSpans(reading.support.sentence).find((s) => !coveredBy(s, questionTerms) && !hasOwnPassage(s, pool));
    const seen = new Set(terms(`${reading.support.passage.title} ${reading.support.sentence}`));
    const remaining = [...new Set(tokens(question).filter((t) => !STOP_WORDS.has(t) && !seen.has(stem(t))))];
    if (bridge && reading.confidence < 0.6) out.push({ query: `${bridge} ${remaining.join(' ')}`.trim(), reason: `"${reading.support.passage.title}" leads to ${bridge}, which no passage is about` });
  }

  // 4. Question words nothing mentions.
  const absent = relation.filter((t) => !poolTerms.has(terms(t)[0] ?? t));
  if (absent.length > 0) {
    const near = entities[0] ?? '';
    out.push({ query: `${near} ${absent.join(' ')}`.trim(), reason: `nothing mentions ${absent.join(', ')}` });
  }
  return out;
}
