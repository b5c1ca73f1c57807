import type { Passage } from '@multihop/core';
import { classifyQuestion, type QuestionShape } from './classifyQuestion';
import { capitalisedSpans, coveredBy, dates, idfTable, numbers, quotedTitles, splitSentences, stem, terms, tokens, yearOf } from '@multihop/lexical';

export interface ScoredSentence {
  passage: Pick<Passage, 'id' | 'title' | 'text'>;
  sentence: string;
  index: number;
  score: number;
}

export interface Reading {
  answer: string;
  /** The sentence the answer was read from (empty when nothing supported it). */
  support: ScoredSentence | undefined;
  /** 0..1: share of the question's weighted terms the supporting sentence and its title cover. */
  confidence: number;
  shape: QuestionShape;
  /**
   * A comparison or yes/no reading whose evidence is complete: every option has the value it is
   * compared by (a year for earlier/later, a number for more/less, a passage otherwise), or every
   * entity a yes/no question names has a passage. Such an answer is settled however little of the
   * question's wording one sentence covers. Always false for other questions.
   */
  settled: boolean;
}

/**
 * Ranks the sentences of `passages` by IDF-weighted overlap with `query`; the passage title
 * counts as part of each of its sentences, since HotpotQA-style paragraphs name their subject
 * in the title and refer to it by pronoun in the text.
 */
export function rankSentences(query: string, passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>): ScoredSentence[] {
  const all: Array<Omit<ScoredSentence, 'score'>> = [];
  for (const passage of passages) {
    splitSentences(passage.text).forEach((sentence, index) => all.push({ passage, sentence, index }));
  }
  const idf = idfTable(all.map((s) => `${s.passage.title} ${s.sentence}`));
  const queryTerms = [...new Set(terms(query))];
  return all
    .map((s) => {
      const own = new Set(terms(s.sentence));
      const title = new Set(terms(s.passage.title));
      let score = 0;
      for (const t of queryTerms) {
        if (own.has(t)) score += idf(t);
        else if (title.has(t)) score += 0.6 * idf(t);
      }
      // Earlier sentences of a paragraph define its subject: a small tie-breaker.
      return { ...s, score: score - 0.01 * s.index };
    })
    .sort((a, b) => b.score - a.score);
}

/** The share of the query's IDF weight that `text` covers. */
export function coverage(query: string, text: string, passages: ReadonlyArray<Pick<Passage, 'title' | 'text'>>): number {
  return coverageWith(passageIdf(passages), query, text);
}

function passageIdf(passages: ReadonlyArray<Pick<Passage, 'title' | 'text'>>): (term: string) => number {
  return idfTable(passages.map((p) => `${p.title} ${p.text}`));
}

/** `coverage` with the IDF table already built, for callers that measure several texts against one pool. */
function coverageWith(idf: (term: string) => number, query: string, text: string): number {
  const q = [...new Set(terms(query))];
  if (q.length === 0) return 0;
  const have = new Set(terms(text));
  const total = q.reduce((s, t) => s + idf(t), 0);
  return total === 0 ? 0 : q.filter((t) => have.has(t)).reduce((s, t) => s + idf(t), 0) / total;
}

/**
 * Reads a short answer for `question` out of `passages`: finds the best-supported sentences,
 * then extracts the span that fits the question's answer type (a date for "when", a number
 * for "how many", a capitalised span the question does not already name for who/where/what,
 * one of the offered options for "A or B", yes/no by attribute coverage).
 */
export function readAnswer(question: string, passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>): Reading {
  const shape = classifyQuestion(question);
  const ranked = rankSentences(question, passages);
  const best = ranked[0];
  if (!best || best.score <= 0) {
    return { answer: fallbackAnswer(shape), support: undefined, confidence: 0, shape, settled: false };
  }
  const questionTerms = new Set(terms(question));
  const idf = passageIdf(passages);
  const confidence = coverageWith(idf, question, `${best.passage.title} ${best.sentence}`);

  if (shape.type === 'yes-no') {
    const settled = shape.entities.length > 0 && shape.entities.every((e) => passagesAbout(e, passages).length > 0);
    return { answer: judgeYesNo(question, shape, passages), support: best, confidence, shape, settled };
  }
  if (shape.type === 'choice') {
    const choice = chooseOption(question, shape, passages);
    return { answer: choice.answer, support: choice.support ?? best, confidence, shape, settled: choice.settled };
  }

  const candidates: Array<{ text: string; score: number; support: ScoredSentence }> = [];
  ranked.slice(0, 8).forEach((s, rank) => {
    for (const text of candidatesOf(s.sentence, shape, questionTerms)) {
      const position = s.sentence.indexOf(text) / Math.max(1, s.sentence.length);
      candidates.push({ text, score: s.score * (1 - 0.08 * rank) - 0.05 * position + typeFit(text, shape), support: s });
    }
    // A sentence led by a pronoun is about its paragraph's subject, which the title names.
    if (PRONOUN_LED.test(s.sentence) && s.passage.title && !coveredBy(s.passage.title, questionTerms) && !['date', 'number'].includes(shape.type)) {
      candidates.push({ text: s.passage.title, score: s.score * (1 - 0.08 * rank) + typeFit(s.passage.title, shape), support: s });
    }
  });
  candidates.sort((a, b) => b.score - a.score);
  const top = candidates[0];
  if (!top) return { answer: shortest(best.sentence), support: best, confidence, shape, settled: false };
  const firstHop = coverageWith(idf, question, `${top.support.passage.title} ${top.support.sentence}`);
  return bridgeHop(question, shape, top, firstHop, passages, idf) ?? { answer: top.text, support: top.support, confidence: firstHop, shape, settled: false };
}

/**
 * Bridge questions ("the position held by the woman who portrayed X"): when the first
 * sentence covers the question only in part and its best span names another passage (the
 * bridge entity), read that passage for the question's remaining terms, with the bridge
 * itself no longer a candidate. Confidence is then what both sentences cover together.
 */
function bridgeHop(
  question: string,
  shape: QuestionShape,
  first: { text: string; support: ScoredSentence },
  firstHop: number,
  passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>,
  idf: (term: string) => number,
): Reading | undefined {
  if (firstHop >= 0.6 || shape.type === 'yes-no' || shape.type === 'choice') return undefined;
  // A bridge is another entity the sentence introduces, with a passage of its own: not the
  // sentence's own subject under another title ("Scott Howell (political consultant)" and "Scott
  // Howell (footballer)", paragraphs of hotpotqa-train's 5a90478a55429933b8a204cc).
  const own = stemmed(baseTitle(first.support.passage.title));
  const other = (p: Pick<Passage, 'id' | 'title'>) => p.id !== first.support.passage.id && stemmed(baseTitle(p.title)) !== own;
  const spans = [first.text, ...capitalisedSpans(first.support.sentence)];
  const bridge = spans.find((span) => titled(span, passages).some(other));
  if (!bridge) return undefined;
  const seen = new Set(terms(`${first.support.passage.title} ${first.support.sentence}`));
  const remaining = [...new Set(terms(question))].filter((t) => !seen.has(t));
  if (remaining.length === 0) return undefined;
  const about = titled(bridge, passages).filter(other);
  const excluded = new Set([...terms(question), ...terms(bridge)]);
  const ranked = rankSentences(remaining.join(' '), about).filter((s) => s.score > 0);
  for (const s of ranked.slice(0, 4)) {
    const candidate = candidatesOf(s.sentence, shape, excluded)[0];
    if (candidate) {
      const both = coverageWith(idf, question, `${first.support.passage.title} ${first.support.sentence} ${s.sentence}`);
      return { answer: candidate, support: s, confidence: both, shape, settled: false };
    }
  }
  return undefined;
}

/** A title without its parenthetical qualifier ("Scott Howell (footballer)" → "Scott Howell"). */
function baseTitle(title: string): string {
  return title.replace(/\s*\(.*\)$/, '');
}

/** Text as one string of stemmed tokens, for containment tests between names. */
function stemmed(text: string): string {
  return tokens(text).map(stem).join(' ');
}

/** Passages whose title is the span (or contains it, or is contained in it). */
function titled(span: string, passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>) {
  const e = stemmed(span);
  if (!e) return [];
  return passages.filter((p) => {
    const t = stemmed(p.title.replace(/\s*\(.*\)$/, ''));
    return t.length > 0 && (t === e || (e.includes(t) && t.split(' ').length >= 2) || (t.includes(e) && e.split(' ').length >= 2));
  });
}

const PRONOUN_LED = /^(he|she|his|her|it|its|they|their)\b/i;

function candidatesOf(sentence: string, shape: QuestionShape, questionTerms: Set<string>): string[] {
  const notInQuestion = (s: string) => !coveredBy(s, questionTerms);
  switch (shape.type) {
    case 'date':
      return dates(sentence).filter(notInQuestion);
    case 'number':
      return numbers(sentence)
        .map((n) => n.text)
        .filter((n) => !/^(1[0-9]{3}|20[0-9]{2})$/.test(n) && notInQuestion(n));
    default:
      return [...quotedTitles(sentence), ...capitalisedSpans(sentence)].filter(
        (s) => notInQuestion(s) && !/^(January|February|March|April|May|June|July|August|September|October|November|December)\b/.test(s) && !/^\d+$/.test(s),
      );
  }
}

function typeFit(text: string, shape: QuestionShape): number {
  const words = text.split(/\s+/).length;
  if (shape.type === 'person') return words >= 2 && words <= 4 ? 0.3 : -0.2;
  if (shape.type === 'place') return words <= 3 ? 0.1 : -0.1;
  return words <= 5 ? 0 : -0.3;
}

function fallbackAnswer(shape: QuestionShape): string {
  if (shape.type === 'yes-no') return 'yes';
  if (shape.type === 'choice') return shape.options[0] ?? 'unknown';
  return 'unknown';
}

function shortest(sentence: string): string {
  return sentence.split(/[,;:]/)[0]?.trim().split(/\s+/).slice(0, 6).join(' ') ?? sentence;
}

/** Passages about `entity`: titled with it, else mentioning it. */
function passagesAbout(entity: string, passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>) {
  const e = stemmed(entity);
  const byTitle = passages.filter((p) => {
    const t = stemmed(p.title);
    return t === e || t.includes(e) || e.includes(t);
  });
  if (byTitle.length) return byTitle;
  return passages.filter((p) => stemmed(p.text).includes(e));
}

/**
 * Yes/no by attributes: the question's terms outside the entities it names are the attribute
 * ("American", "director"). For "same"/"both" questions the answer is yes when every named
 * entity's passage has that attribute, or when their passages share a nationality-like word.
 */
function judgeYesNo(question: string, shape: QuestionShape, passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>): string {
  const entityTerms = new Set(shape.entities.flatMap((e) => terms(e)));
  const attribute = [...new Set(terms(question))].filter((t) => !entityTerms.has(t) && !['same', 'both', 'also'].includes(t));
  const subjects = shape.entities.map((e) => passagesAbout(e, passages)).filter((ps) => ps.length > 0);
  if (subjects.length === 0) return 'no';
  const comparesSame = /\b(same|both)\b/i.test(question);
  if (comparesSame && subjects.length >= 2) {
    const descriptors = subjects.map((ps) => new Set(ps.flatMap((p) => capitalisedSpans(splitSentences(p.text)[0] ?? '').map((s) => s.toLowerCase()))));
    const [first, ...rest] = descriptors;
    const shared = [...(first ?? [])].some((d) => rest.every((r) => r.has(d)) && !shape.entities.some((e) => e.toLowerCase() === d));
    if (attribute.length === 0) return shared ? 'yes' : 'no';
    const allHave = subjects.every((ps) => attribute.every((t) => ps.some((p) => terms(p.text).includes(t))));
    return allHave || shared ? 'yes' : 'no';
  }
  if (attribute.length === 0) return 'yes';
  const text = subjects.flat();
  const have = attribute.filter((t) => text.some((p) => terms(`${p.title} ${p.text}`).includes(t))).length;
  return have / attribute.length >= 0.6 ? 'yes' : 'no';
}

/**
 * "A or B": with a comparative, compare the first year (earlier/later) or number (more/less)
 * each option's passage gives; otherwise pick the option whose passages best cover the rest
 * of the question.
 */
function chooseOption(
  question: string,
  shape: QuestionShape,
  passages: ReadonlyArray<Pick<Passage, 'id' | 'title' | 'text'>>,
): { answer: string; support?: ScoredSentence; settled: boolean } {
  const rest = terms(question).filter((t) => !shape.options.some((o) => terms(o).includes(t)));
  const scored = shape.options.map((option) => {
    const about = passagesAbout(option, passages);
    const ranked = rankSentences(`${option} ${rest.join(' ')}`, about);
    const best = ranked[0];
    const text = about.map((p) => p.text).join(' ');
    const year = dates(best?.sentence ?? text).map(yearOf).find((y) => y !== undefined) ?? dates(text).map(yearOf).find((y) => y !== undefined);
    const number = numbers(best?.sentence ?? text).find((n) => !/^(1[0-9]{3}|20[0-9]{2})$/.test(n.text))?.value;
    return { option, year, number, support: best, overlap: best?.score ?? 0 };
  });
  const pick = (better: (a: (typeof scored)[number], b: (typeof scored)[number]) => boolean) => {
    let chosen = scored[0];
    for (const s of scored.slice(1)) if (chosen && better(s, chosen)) chosen = s;
    return chosen;
  };
  let chosen: (typeof scored)[number] | undefined;
  let settled = false;
  const haveYears = scored.every((s) => s.year !== undefined);
  const haveNumbers = scored.every((s) => s.number !== undefined);
  if ((shape.comparative === 'earlier' || shape.comparative === 'later') && haveYears) {
    chosen = pick((a, b) => (shape.comparative === 'earlier' ? (a.year ?? 0) < (b.year ?? 0) : (a.year ?? 0) > (b.year ?? 0)));
    settled = true;
  } else if ((shape.comparative === 'more' || shape.comparative === 'less') && haveNumbers) {
    chosen = pick((a, b) => (shape.comparative === 'more' ? (a.number ?? 0) > (b.number ?? 0) : (a.number ?? 0) < (b.number ?? 0)));
    settled = true;
  } else {
    chosen = pick((a, b) => a.overlap > b.overlap);
    settled = shape.comparative === undefined && scored.every((s) => s.support !== undefined);
  }
  return { answer: chosen?.option ?? shape.options[0] ?? 'unknown', support: chosen?.support, settled };
}
