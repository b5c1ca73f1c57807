import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Passage, Question } from '@multihop/core';

/**
 * Reads the first `n` questions of the real HotpotQA dev sample (../shared/datasets), with
 * their own paragraphs, read straight from the IRCoT lines (this package sits below
 * @multihop/datasets in the package graph).
 */
export function hotpotDev(n: number): Array<{ question: Question; passages: Passage[] }> {
  const file = resolve(__dirname, '../../../../shared/datasets/hotpotqa/dev-500.ircot.jsonl');
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
      const passages = row.contexts.map((c) => ({ id: `${row.question_id}:${c.id}`, title: c.title, text: c.paragraph_text }));
      return {
        question: {
          id: row.question_id,
          text: row.question_text,
          answer: spans[0] ?? '',
          aliases: spans.slice(1),
          supportingIds: row.contexts.filter((c) => c.is_supporting).map((c) => `${row.question_id}:${c.id}`),
        },
        passages,
      };
    });
}
