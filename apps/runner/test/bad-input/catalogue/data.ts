import type { Kind } from '../harness';

/**
 * The data area's kinds of bad input and fault (see ../catalogue.ts): dataset and corpus files,
 * the LanceDB corpus store, ingest. `before` was measured by running each case through the CLI
 * before the fix.
 */
export const KINDS: readonly Kind[] = [
  { id: 'data/dataset-typo', before: 'unclear', what: '--dataset hotpotqa-dve (a typo of a known name)' },
  { id: 'data/dataset-path-missing', before: 'clear', what: '--dataset ./nope.json, a path that does not exist' },
  { id: 'data/dataset-is-directory', before: 'unclear', what: '--dataset DIR, a directory instead of a file' },
  { id: 'data/corpus-is-directory', before: 'unclear', what: '--corpus DIR, a directory instead of a corpus file' },
  { id: 'data/corpus-path-missing', before: 'unclear', what: '--corpus ./nope.jsonl, a path that does not exist (the message named the path, not that it was the corpus file)' },
  { id: 'data/malformed-json-line', before: 'clear', what: 'a JSONL dataset whose line 2 is not valid JSON' },
  { id: 'data/missing-field', before: 'clear', what: 'a dataset record without its `question` field' },
  { id: 'data/empty-gold-answer', before: 'silent-wrong', what: 'a dataset record whose gold answer is empty (`"answer": ""`, IRCoT `spans: []`)' },
  { id: 'data/unknown-layout', before: 'clear', what: 'a dataset whose records fit no layout ({foo, bar})' },
  { id: 'data/layout-typo', before: 'clear', what: '--layout hotpt (a typo of a layout name)' },
  { id: 'data/empty-dataset-file', before: 'clear', what: 'an empty dataset file' },
  { id: 'data/non-utf8', before: 'silent-wrong', what: 'a dataset with a Latin-1 byte (ü of Zürich) in a question' },
  { id: 'data/question-without-paragraphs', before: 'silent-wrong', what: 'a question whose context is empty (closed setting)' },
  { id: 'data/paragraph-without-text', before: 'silent-wrong', what: 'a paragraph whose sentences are all empty' },
  { id: 'data/corpus-duplicate-ids', before: 'silent-wrong', what: 'a corpus file giving one id to two different passages' },
  { id: 'data/corpus-empty-text', before: 'silent-wrong', what: 'a corpus file passage with empty text' },
  { id: 'data/store-file-deleted', before: 'silent-wrong', what: 'a LanceDB store one of whose data files was deleted (then ingest --rebuild)' },
  { id: 'data/store-file-truncated', before: 'silent-wrong', what: 'a LanceDB store one of whose data files was cut short' },
  { id: 'data/db-is-file', before: 'crash', what: '--db FILE, a regular file instead of a store directory' },
  // Killed at random points (1.2 to 2.6 s in) the re-run completed; killed as the sentence table was
  // being created (what the test does) every later ingest failed on LanceDB's "exists but could not be loaded".
  { id: 'data/kill-9-during-ingest', before: 'unclear', what: 'ingest killed with -9 after the passages were written, then run again' },
  { id: 'data/concurrent-ingest', before: 'unclear', what: 'two ingests into one store at once (the writer lock)' },
  { id: 'data/ingest-times', before: 'unclear', what: 'ingest summary times (`804.4533759999999 ms`)' },
  { id: 'data/manifest-question-count', before: 'silent-wrong', what: 'the open corpus manifest counting 0 questions' },
  { id: 'data/first-run-ingest-progress', before: 'unclear', what: 'the first run on a dataset, silent while it ingests' },
];
