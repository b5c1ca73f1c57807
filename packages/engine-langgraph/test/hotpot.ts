import type { Query, RetrieverPort, SearchHit } from '@multihop/core';
import { hotpotDevSample } from '@multihop/testing';

export interface HotpotCase {
  query: Query;
  /** A lexical retriever over the question's own ten paragraphs (the distractor setting). */
  retriever: RetrieverPort;
  titles: string[];
}

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

/** The first `n` real HotpotQA dev questions, each with a retriever over its own paragraphs. */
export function hotpotCases(n: number): HotpotCase[] {
  return hotpotDevSample(n).map(({ question, passages }) => {
    const indexed = passages.map((p) => ({ passage: p, terms: words(`${p.title} ${p.text}`) }));
    const retriever: RetrieverPort = {
      async search(query, options = {}) {
        const q = words(query);
        const scored = indexed
          .map(({ passage, terms }) => ({ passage, score: [...q].filter((w) => terms.has(w)).length }))
          .sort((a, b) => b.score - a.score || a.passage.id.localeCompare(b.passage.id));
        return scored.slice(0, options.k ?? 5).map(({ passage, score }, i): SearchHit => ({ ...passage, rank: i + 1, score }));
      },
    };
    return { query: { id: question.id, text: question.text }, retriever, titles: passages.map((p) => p.title) };
  });
}
