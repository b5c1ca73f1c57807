import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Shaped like @multihop/core's Question and Passage (this package sits below core, so it cannot import them). */
export interface SampleQuestion {
  id: string;
  text: string;
  answer: string;
  aliases: string[];
  supportingIds: string[];
}
export interface SamplePassage {
  id: string;
  title: string;
  text: string;
}

/**
 * Where the shared datasets are: MULTIHOP_DATASETS_DIR, else the first `shared/datasets` found
 * beside this folder or one above it, walking up (as the runner's resolver walks up from the
 * working directory), so a clone anywhere below the folder that holds `shared/` finds them.
 * Nothing found: `../shared/datasets` beside the repo, which the caller's error then names.
 */
export function sharedDatasetsDir(): string {
  const configured = process.env['MULTIHOP_DATASETS_DIR'];
  if (configured) return configured;
  for (let dir = resolve(__dirname, '../../..'); ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'shared', 'datasets'), join(dir, '..', 'shared', 'datasets')]) if (isDirectory(candidate)) return resolve(candidate);
    if (dirname(dir) === dir) break;
  }
  return resolve(__dirname, '../../../../shared/datasets');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The first `n` questions of the real HotpotQA dev sample with their own paragraphs, read
 * straight from the IRCoT lines, for tests of packages that sit below @multihop/datasets
 * in the package graph (core, offline-model).
 */
export function hotpotDevSample(n: number): Array<{ question: SampleQuestion; passages: SamplePassage[] }> {
  const file = resolve(sharedDatasetsDir(), 'hotpotqa/dev-500.ircot.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, n)
    .map((line) => {
      const row = JSON.parse(line) as {
        question_id: string;
        question_text: string;
        answers_objects: Array<{ spans: string[] }>;
        contexts: Array<{ id: string; title: string; paragraph_text: string; is_supporting: boolean }>;
      };
      const spans = row.answers_objects.flatMap((a) => a.spans);
      const id = (c: { id: string }) => `${row.question_id}:${c.id}`;
      return {
        question: {
          id: row.question_id,
          text: row.question_text,
          answer: spans[0] ?? '',
          aliases: spans.slice(1),
          supportingIds: row.contexts.filter((c) => c.is_supporting).map(id),
        },
        passages: row.contexts.map((c) => ({ id: id(c), title: c.title, text: c.paragraph_text })),
      };
    });
}

/**
 * The first `n` questions of the real HotpotQA train sample (`hotpotqa/train-100.json`, the
 * original HotpotQA layout) with their own paragraphs, shaped as hotpotDevSample's are: passage
 * ids `${_id}:${i}` for the question's i-th context paragraph, and as supporting ids the
 * paragraphs whose titles its supporting_facts name. For tests that check the offline model's
 * behaviour, whose rules are developed on the train splits (dev questions are for reporting).
 */
export function hotpotTrainSample(n: number): Array<{ question: SampleQuestion; passages: SamplePassage[] }> {
  const file = resolve(sharedDatasetsDir(), 'hotpotqa/train-100.json');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{
    _id: string;
    question: string;
    answer: string;
    context: Array<[string, string[]]>;
    supporting_facts: Array<[string, number]>;
  }>;
  return rows.slice(0, n).map((row) => {
    const supportingTitles = new Set(row.supporting_facts.map(([title]) => title));
    const passages = row.context.map(([title, sentences], i) => ({ id: `${row._id}:${i}`, title, text: joinSentences(sentences) }));
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

/** HotpotQA's sentence lists as one text, a space between sentences that do not bring their own (as @multihop/lexical's joinSentences). */
function joinSentences(sentences: string[]): string {
  let text = '';
  for (const s of sentences) {
    if (text && !/\s$/.test(text) && !/^\s/.test(s)) text += ' ';
    text += s;
  }
  return text.trim();
}
