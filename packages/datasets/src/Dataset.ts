import type { Passage, Question } from '@multihop/core';

/** The on-disk layouts the loaders read. */
export type Layout = 'ircot' | 'hotpot' | 'hf-hotpot' | 'musique' | 'morehopqa' | 'frames' | 'qa' | 'plain';

export const LAYOUTS: readonly Layout[] = ['ircot', 'hotpot', 'hf-hotpot', 'musique', 'morehopqa', 'frames', 'qa', 'plain'];

/** What each layout needs, in the words the errors and the README use. */
export const LAYOUT_NEEDS: Readonly<Record<Layout, string>> = {
  ircot: 'IRCoT JSONL: question_id, question_text, answers_objects, contexts[] {title, paragraph_text, is_supporting}',
  hotpot: 'original HotpotQA / 2WikiMultiHopQA JSON: _id, question, answer, context [[title, [sentences]]], supporting_facts [[title, sent_id]]',
  'hf-hotpot': 'Hugging Face hotpot_qa: id, question, answer, context {title: [..], sentences: [[..]]}, supporting_facts {title: [..], sent_id: [..]}',
  musique: 'MuSiQue: id, question, answer, paragraphs[] {title, paragraph_text, is_supporting}, question_decomposition',
  morehopqa: 'MoreHopQA JSON: question, answer, previous_question/previous_answer, context [[title, [sentences]]], question_decomposition[] {question, answer, paragraph_support_title}, no_of_hops, reasoning_type',
  frames: 'FRAMES (google/frames-benchmark) TSV/CSV/JSON: Prompt, Answer, wiki_links or wikipedia_link_N (gold = linked article titles, resolved in --corpus), reasoning_types',
  qa: 'questions without passages (Bamboogle CSV/TSV with a header, FlashRAG JSONL): question, answer (a string, a list of aliases, or golden_answers), optional id and type',
  plain: 'plain JSONL: id, question, answers [..], supporting_ids (ids in the corpus file given as `corpus`)',
};

/** One line per layout with what it needs, for error messages. */
export function describeLayouts(): string {
  return LAYOUTS.map((layout) => `  ${layout}: ${LAYOUT_NEEDS[layout]}`).join('\n');
}

/** A passage of a corpus with its sentences, so the retriever can index sentence chunks (OPERA). */
export interface CorpusPassage extends Passage {
  /** The passage's sentences, in order; joined they give back `text` up to whitespace. */
  sentences: string[];
}

/** A record the loader left out (`skipInvalid`), with why. */
export interface RecordProblem {
  line: number;
  field?: string;
  /** The full message, starting `file:line:`. */
  message: string;
}

/** The corpus file a dataset was loaded with. */
export interface CorpusFile {
  /** Absolute path. */
  path: string;
  /** sha1 of the file's bytes: a different file, or the same file edited, gets a different corpus. */
  sha1: string;
  /** Passages the file holds. */
  passages: number;
}

/** A question set with its corpus, in the id space the retriever returns. */
export interface Dataset {
  /** Short name, e.g. `hotpotqa-dev`; used as the default corpus name. */
  name: string;
  /** Absolute path of the question file. */
  source: string;
  /**
   * The sha1 of the question file's text (as read, UTF-8), for a file given by path (not a shared dataset's name):
   * two files of one base name (two `test.json`) are two datasets, and an edited file another one.
   */
  sourceSha1?: string;
  layout: Layout;
  questions: Question[];
  /** Every paragraph of every question (plus the corpus file, if any), deduplicated by id, first seen first. Empty for a closed-book set. */
  passages: CorpusPassage[];
  /**
   * Question id → ids of that question's own paragraphs (the closed / distractor setting).
   * Empty for the layouts whose questions bring no paragraphs (plain, qa, frames).
   */
  contexts: Record<string, string[]>;
  /** Supporting facts the loader could not map, gold titles not in the pool, a closed-book set: kept for honesty. */
  warnings: string[];
  /**
   * The subset of `warnings` about the content a user must see before trusting a run: questions
   * that bring no paragraphs, paragraphs without text, corpus-file ids used twice for different
   * passages, corpus-file passages without text. Each names the file, the line and the question or id.
   */
  contentWarnings?: string[];
  /** Records left out because they are invalid (only with `skipInvalid`; otherwise an invalid record throws). */
  skipped: RecordProblem[];
  /**
   * Question id → gold titles found in no passage of the pool (FRAMES links without a corpus,
   * HotpotQA fullwiki gold outside every loaded context). They are not in `supportingIds`:
   * retrieval metrics score the gold the corpus holds, and a question none of whose gold is in the
   * corpus has no retrieval scores.
   */
  unresolvedGold: Record<string, string[]>;
  /** The corpus file given as `corpus`, if any. */
  corpusFile?: CorpusFile;
  /**
   * The id-aliases file whose aliases and demonyms joined the gold answers (2WikiMultiHopQA's
   * id_aliases.json; see LoadDatasetOptions.answerAliases), and the ids of the questions that gained one.
   */
  answerAliases?: { path: string; sha1: string; questionIds: string[] };
}
