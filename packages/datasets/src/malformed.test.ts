import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { loadDataset } from './loadDataset';
import { loadCorpus } from './loadCorpus';

async function write(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'multihop-datasets-'));
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

const ircotLine = (id: string, text: unknown) =>
  JSON.stringify({ question_id: id, question_text: text, answers_objects: [{ spans: ['x'] }], contexts: [{ title: 'T', paragraph_text: 'P.', is_supporting: true }] });

describe('malformed input', () => {
  it('names the file, line and field of a bad JSONL record', async () => {
    const file = await write('bad.jsonl', [ircotLine('a', 'ok?'), '', ircotLine('b', 42)].join('\n'));
    const error = await loadDataset(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toEqual({ file, line: 3, field: 'question_text' });
    expect((error as Error).message).toContain(`${file}:3: field \`question_text\``);
  });

  it('names the line of a JSONL line that is not JSON', async () => {
    const file = await write('broken.jsonl', `${ircotLine('a', 'q')}\n{"question_id": "b",\n`);
    await expect(loadDataset(file)).rejects.toMatchObject({ location: { file, line: 2 } });
  });

  it('names the line where a bad record of a JSON array starts, with a nested field path', async () => {
    const good = { _id: 'a', question: 'q', answer: 'x', context: [['T', ['s.']]], supporting_facts: [['T', 0]] };
    const bad = { ...good, _id: 'b', context: [['T', ['s.', 7]]] };
    const file = await write('bad.json', JSON.stringify([good, bad], null, 2));
    const recordStarts = JSON.stringify([good, bad], null, 2).split('\n').flatMap((l, i) => (l === '  {' ? [i + 1] : []));
    const lineOfBad = recordStarts[1];
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error.location.line).toBe(lineOfBad);
    expect(error.location.field).toBe('context[0][1][1]');
  });

  it('names the line of a JSON syntax error', async () => {
    const file = await write('syntax.json', '[\n  {"_id": "a"},\n  {"_id": }\n]');
    await expect(loadDataset(file)).rejects.toMatchObject({ location: { file, line: 3 } });
  });

  it('rejects a supporting fact whose title is not in the context', async () => {
    const rec = { _id: 'a', question: 'q', answer: 'x', context: [['T', ['s.']]], supporting_facts: [['Missing', 0]] };
    const file = await write('sf.json', JSON.stringify([rec]));
    await expect(loadDataset(file)).rejects.toMatchObject({ location: { file, line: 1, field: 'supporting_facts[0][0]' } });
  });

  it('rejects plain gold ids missing from the corpus', async () => {
    const corpus = await write('c.jsonl', JSON.stringify({ id: 'p1', title: 'T', text: 'x' }));
    const file = await write('q.jsonl', JSON.stringify({ id: 'q', question: 'q?', answers: ['a'], supporting_ids: ['p1', 'p9'] }));
    await expect(loadDataset(file, { corpus })).rejects.toMatchObject({ location: { file, line: 1, field: 'supporting_ids[1]' } });
  });

  it('requires a corpus for plain questions that name gold passage ids', async () => {
    const file = await write('q.jsonl', JSON.stringify({ id: 'q', question: 'q?', answers: ['a'], supporting_ids: ['p1'] }));
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line: 1, field: 'supporting_ids[0]' });
    expect(error.message).toMatch(/no corpus file was given/);
  });

  it('names a corpus line without text', async () => {
    const file = await write('c.jsonl', `${JSON.stringify({ id: 'p1', title: 'T', text: 'x' })}\n${JSON.stringify({ id: 'p2', title: 'U' })}`);
    await expect(loadCorpus(file)).rejects.toMatchObject({ location: { file, line: 2, field: 'text' } });
  });

  it('says a corpus file is not a question file', async () => {
    const file = await write('c.jsonl', JSON.stringify({ id: 'p1', title: 'T', text: 'x' }));
    await expect(loadDataset(file)).rejects.toThrow(/looks like a corpus file/);
  });
});
