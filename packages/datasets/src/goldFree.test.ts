import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { InputError } from '@multihop/core';
import { hasGold } from './hasGold';
import { loadDataset } from './loadDataset';

// Test splits made from real HotpotQA train questions (shared/datasets/hotpotqa/train-100.json) by
// taking their gold away, as a test file comes: 2WikiMultiHopQA's test.json keeps each question's
// paragraphs and drops `answer` and `supporting_facts`; a question list keeps id and question.
const train = JSON.parse(readFileSync(resolve(__dirname, '../../../../shared/datasets/hotpotqa/train-100.json'), 'utf8')) as Array<Record<string, unknown>>;
const first = train.slice(0, 4);

async function write(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'multihop-goldfree-'));
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

describe("a test split (questions without gold), loaded with gold: 'optional'", () => {
  it('a question list: every question loads without gold, and a record that does have an answer keeps it', async () => {
    const records = first.map((r, i) => (i === 3 ? { id: r['_id'], question: r['question'], answer: r['answer'] } : { id: r['_id'], question: r['question'] }));
    const file = await write('questions.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const ds = await loadDataset(file, { gold: 'optional' });
    expect(ds.layout).toBe('qa');
    expect(ds.questions.map((q) => [q.id, q.text])).toEqual(first.map((r) => [r['_id'], r['question']]));
    expect(ds.questions.map(hasGold)).toEqual([false, false, false, true]);
    expect(ds.questions[3]!.answer).toBe(first[3]!['answer']);
    // Without the option, the same file is refused and told what takes it.
    const refused = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(refused.message).toContain('`multihop predict --workflows ... --dataset FILE --corpus CORPUS` answers every question without scoring');
  });

  it('a CSV with a Question column alone, and answers left blank or null', async () => {
    const csv = await write('questions.csv', ['Question', ...first.map((r) => `"${String(r['question']).replace(/"/g, '""')}"`)].join('\n'));
    const fromCsv = await loadDataset(csv, { gold: 'optional' });
    expect(fromCsv.questions.map((q) => q.text)).toEqual(first.map((r) => r['question']));
    expect(fromCsv.questions.map((q) => q.id)).toEqual(['0', '1', '2', '3']);
    expect(fromCsv.questions.some(hasGold)).toBe(false);
    const blanks = await write('blank.jsonl', [JSON.stringify({ id: 'a', question: 'Who?', answer: '' }), JSON.stringify({ id: 'b', question: 'Where?', answers: null }), JSON.stringify({ id: 'c', question: 'When?', golden_answers: [] })].join('\n'));
    expect((await loadDataset(blanks, { gold: 'optional' })).questions.map(hasGold)).toEqual([false, false, false]);
  });

  it('a plain list with `answers: []` (the plain layout), mixed with answered questions', async () => {
    const records = first.map((r, i) => ({ id: r['_id'], question: r['question'], answers: i === 1 ? [r['answer']] : [] }));
    const file = await write('plain.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const ds = await loadDataset(file, { gold: 'optional' });
    expect(ds.layout).toBe('plain');
    expect(ds.questions.map(hasGold)).toEqual([false, true, false, false]);
    expect(ds.questions[1]!.answer).toBe(first[1]!['answer']);
    // To be scored, every record needs its answers.
    expect(((await loadDataset(file).catch((e: unknown) => e)) as InputError).message).toMatch(/plain\.jsonl:1: field `answers`: is empty/);
  });

  it('a 2Wiki-style test file (paragraphs, no answer, no supporting facts): questions without gold, their paragraphs in the pool and in their contexts', async () => {
    const test = first.map(({ _id, question, type, context }) => ({ _id, question, type, context }));
    const file = await write('test.json', JSON.stringify(test));
    const ds = await loadDataset(file, { gold: 'optional' });
    expect(ds.layout).toBe('hotpot');
    expect(ds.questions.some(hasGold)).toBe(false);
    expect(ds.questions.every((q) => q.supportingIds.length === 0)).toBe(true);
    const titles = new Map(ds.passages.map((p) => [p.id, p.title]));
    for (const [i, q] of ds.questions.entries()) {
      expect(ds.contexts[q.id]!.map((id) => titles.get(id))).toEqual((first[i]!['context'] as Array<[string, string[]]>).map(([title]) => title));
    }
    expect(((await loadDataset(file).catch((e: unknown) => e)) as InputError).message).toContain('field `answer`: missing');
  });

  it('still refuses a record without a question, naming its line', async () => {
    const file = await write('bad.jsonl', [JSON.stringify({ id: 'a', question: 'Who?' }), JSON.stringify({ id: 'b' })].join('\n'));
    const error = (await loadDataset(file, { gold: 'optional' }).catch((e: unknown) => e)) as InputError;
    expect(error.message).toMatch(/bad\.jsonl:2: field `question`: required/);
  });
});
