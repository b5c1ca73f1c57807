import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Shaped like @multihop/core's Question: the gold the suite's prompt variables are built from. */
export interface SampleQuestion {
  id: string;
  text: string;
  answer: string;
  aliases: string[];
  /** Ids of the question's supporting paragraphs (HotpotQA's supporting-fact titles). */
  supportingIds: string[];
}

/** Shaped like @multihop/core's Passage. */
export interface SamplePassage {
  id: string;
  title: string;
  text: string;
}

/** One question of the bundled sample with its own ten paragraphs (HotpotQA's distractor setting). */
export interface SampleEntry {
  question: SampleQuestion;
  passages: SamplePassage[];
}

/** The file this package ships: the first five records of the HotpotQA train split, unchanged (CC BY-SA 4.0; see data/NOTICE.md). */
export const SAMPLE_FILE = resolve(__dirname, '../data/hotpotqa-train-5.json');

interface HotpotRecord {
  _id: string;
  question: string;
  answer: string;
  context: Array<[string, string[]]>;
  supporting_facts: Array<[string, number]>;
}

let records: HotpotRecord[] | undefined;

/**
 * The first `n` (at most 5) questions of the HotpotQA train split, with their own ten paragraphs,
 * from the file this package ships: real questions for the conformance suite and for a method's
 * own tests, with no dataset to download. Passage ids are `<question id>:<paragraph index>`; a
 * question's supporting ids are its paragraphs whose titles its supporting facts name.
 */
export function conformanceSample(n = 5): SampleEntry[] {
  records ??= JSON.parse(readFileSync(SAMPLE_FILE, 'utf8')) as HotpotRecord[];
  if (!Number.isInteger(n) || n < 1 || n > records.length) {
    throw new RangeError(`conformanceSample(${n}): the bundled sample (${SAMPLE_FILE}) has ${records.length} questions; ask for 1 to ${records.length}`);
  }
  return records.slice(0, n).map((row) => {
    const supportingTitles = new Set(row.supporting_facts.map(([title]) => title));
    const passages = row.context.map(([title, sentences], i) => ({ id: `${row._id}:${i}`, title, text: sentences.join('').trim() }));
    return {
      question: {
        id: row._id,
        text: row.question,
        answer: row.answer,
        aliases: [],
        supportingIds: passages.filter((p) => supportingTitles.has(p.title)).map((p) => p.id),
      },
      passages,
    };
  });
}
