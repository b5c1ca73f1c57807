import type { Question } from '@multihop/core';
import type { CorpusBuilder } from '../CorpusBuilder';
import type { SourceRecord } from '../readRecords';

/** What a layout's record loader gets besides the record. */
export interface LayoutContext {
  file: string;
  /** The pool: a record adds its paragraphs here (taken back if the record turns out invalid). */
  corpus: CorpusBuilder;
  warnings: string[];
  /**
   * `closed`: a gold title outside the question's own context makes the record invalid (nothing
   * could find it). `open`: it is looked up in the whole pool once every record is read.
   */
  setting: 'open' | 'closed';
  /** 0-based position of the record in the file, for layouts whose records carry no id. */
  index: number;
  /** A question list's record without an answer loads with no gold (LoadDatasetOptions.gold `optional`). */
  goldOptional?: boolean;
}

/** A gold paragraph named by title only, resolved against the pool after the whole file is read. */
export interface GoldTitle {
  title: string;
  /** A supporting sentence index, where the dataset gives one. */
  sentence?: number;
}

/** One record's question, its own paragraphs (where the layout has them) and gold still to resolve. */
export interface LoadedQuestion {
  question: Question;
  /**
   * The record says the question cannot be answered from its paragraphs (MuSiQue-Full's
   * `answerable: false` twins): left out of the dataset, counted in a warning.
   */
  unanswerable?: true;
  context?: string[];
  goldTitles?: GoldTitle[];
  /** The answer's Wikidata id (2WikiMultiHopQA's `answer_id`), to look its aliases up in an id-aliases file. */
  answerId?: string;
}

export type RecordLoader = (record: SourceRecord, ctx: LayoutContext) => LoadedQuestion;
