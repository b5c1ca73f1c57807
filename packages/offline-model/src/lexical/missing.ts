import type { Passage } from '@multihop/core';
import { STOP_WORDS, capitalisedSpans, coveredBy, decomposeQuestion, quotedTitles, stem, terms, tokens } from '@multihop/lexical';
import { readAnswer } from './reader';

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
function hasOwnPassage(span: string, pool: Pool): boolean {
  const spanTerms = new Set(terms(span));
  if (spanTerms.size === 0) return true;
  return pool.some((p) => {
    const title = terms(p.title.replace(/\s*\(.*\)$/, ''));
    return title.length > 0 && (title.every((t) => spanTerms.has(t)) || [...spanTerms].every((t) => title.includes(t)));
  });
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
  const steps = decomposeQuestion(question);
  const entities = [...new Set([...quotedTitles(question), ...capitalisedSpans(question)])];
  const entityTerms = new Set(entities.flatMap((e) => tokens(e)));
  const relation = tokens(question).filter((t) => !STOP_WORDS.has(t) && !entityTerms.has(t));

  // 1. The chain, hop by hop.
  if (steps.length >= 2) {
    const answers: string[] = [];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!.replace(PLACEHOLDER, (_, noun: string, n: string) => answers[Number(n) - 1] || noun);
      const reading = readAnswer(step, pool);
      // Answered: a span was read from a sentence that covers the step well, or that (with its
      // title) names every entity of the step, as a hop's relation words are often paraphrased.
      const named = reading.support !== undefined && [...quotedTitles(step), ...capitalisedSpans(step)].every((e) => coveredBy(e, new Set(terms(`${reading.support!.passage.title} ${reading.support!.sentence}`))));
      const found = reading.support !== undefined && (reading.confidence >= 0.5 || named) && reading.answer.trim() !== '' && reading.answer !== 'unknown';
      if (!found) {
        out.push({ query: keywordsOf(step), reason: `hop ${i + 1} of ${steps.length} ("${step}") is not answered by the evidence` });
        break;
      }
      answers.push(reading.answer);
      const last = i === steps.length - 1;
      if (!last && !hasOwnPassage(reading.answer, pool)) {
        const next = steps[i + 1]!.replace(PLACEHOLDER, ' ');
        out.push({ query: `${reading.answer} ${keywordsOf(next)}`.trim(), reason: `hop ${i + 1} leads to ${reading.answer}, which no passage is about` });
        break;
      }
    }
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
