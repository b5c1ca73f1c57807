import type { Passage, Question } from '@multihop/core';

/** The on-disk layouts the loaders read. */
export type Layout = 'ircot' | 'hotpot' | 'hf-hotpot' | 'musique' | 'plain';

export const LAYOUTS: readonly Layout[] = ['ircot', 'hotpot', 'hf-hotpot', 'musique', 'plain'];

/** A passage of a corpus with its sentences, so the retriever can index sentence chunks (OPERA). */
export interface CorpusPassage extends Passage {
  /** The passage's sentences, in order; joined they give back `text` up to whitespace. */
  sentences: string[];
}

/** A question set with its corpus, in the id space the retriever returns. */
export interface Dataset {
  /** Short name, e.g. `hotpotqa-dev`; used as the default corpus name. */
  name: string;
  /** Absolute path of the question file. */
  source: string;
  layout: Layout;
  questions: Question[];
  /** Every paragraph of every question (plus the corpus file, if any), deduplicated by id, first seen first. */
  passages: CorpusPassage[];
  /**
   * Question id → ids of that question's own paragraphs (the closed / distractor setting).
   * Empty for the plain layout, whose questions share one corpus.
   */
  contexts: Record<string, string[]>;
  /** Supporting facts the loader could not map (e.g. a sentence index past the paragraph's end), kept for honesty. */
  warnings: string[];
}
