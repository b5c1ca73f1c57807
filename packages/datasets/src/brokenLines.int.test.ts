import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError } from '@multihop/core';
import { loadDataset } from './loadDataset';

// A JSONL line that is not JSON (a download cut short, a hand edit) is one more invalid record:
// counted with the others and, with skipInvalid, left out while the rest load. Real MuSiQue dev
// records from the shared file (shared/datasets/README.md).
const musiqueDev = resolve(__dirname, '../../../../shared/datasets/musique/dev-200.jsonl');

async function firstLines(n: number): Promise<string[]> {
  return (await readFile(musiqueDev, 'utf8')).split('\n').filter(Boolean).slice(0, n);
}

async function write(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'multihop-broken-')), name);
  await writeFile(file, text);
  return file;
}

const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;

describe('a JSONL question file with a line that is not JSON', () => {
  it('fails naming the line, counts it with the other invalid records, and says skipInvalid exists', async () => {
    const lines = await firstLines(6);
    lines[2] = lines[2]!.slice(0, 200);
    const file = await write('questions.jsonl', lines.join('\n'));
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line: 3 });
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: not valid JSON \\(`));
    expect(error.message).toMatch(/1 of 6 records .* are invalid; `skipInvalid` \(--skip-invalid\) loads the 5 valid ones/);
  });

  it('with skipInvalid loads the other lines and reports the broken one with the schema errors', async () => {
    const lines = await firstLines(6);
    lines[2] = lines[2]!.slice(0, 200);
    const { question: _, ...noQuestion } = JSON.parse(lines[4]!) as Record<string, unknown>;
    lines[4] = JSON.stringify(noQuestion);
    const file = await write('questions.jsonl', lines.join('\n'));
    const ds = await loadDataset(file, { skipInvalid: true });
    expect(ds.questions.map((q) => q.id)).toEqual([lines[0], lines[1], lines[3], lines[5]].map((l) => idOf(l!)));
    expect(ds.skipped.map((p) => [p.line, p.field])).toEqual([
      [3, undefined],
      [5, 'question'],
    ]);
    expect(ds.skipped[0]?.message).toMatch(/:3: not valid JSON/);
    expect(ds.warnings[0]).toMatch(/skipped 2 invalid records of 6:\n {2}.*:3: not valid JSON/);
    // The broken record brought no passages: the pool is the four loaded questions' paragraphs.
    const own = new Set(ds.questions.flatMap((q) => ds.contexts?.[q.id] ?? []));
    expect(new Set(ds.passages.map((p) => p.id))).toEqual(own);
  });

  it('fails on the first broken line when no line is JSON, and on a JSON array that does not parse', async () => {
    const lines = (await firstLines(2)).map((l) => l.slice(0, 100));
    const none = await write('questions.jsonl', lines.join('\n'));
    await expect(loadDataset(none, { skipInvalid: true })).rejects.toThrow(new RegExp(`questions\\.jsonl:1: not valid JSON`));
    // A JSON document is all or nothing: nothing of a broken array can be read, skipInvalid or not.
    const array = await write('questions.json', `[${(await firstLines(2)).join(',\n').slice(0, -40)}]`);
    await expect(loadDataset(array, { skipInvalid: true })).rejects.toThrow(/questions\.json:\d+: not valid JSON/);
  });
});
