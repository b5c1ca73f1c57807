import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { corpusAsDataset, loadCorpus, loadCorpusFile } from './loadCorpus';
import { passageId } from './passageId';

async function write(name: string, lines: unknown[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'multihop-corpus-')), name);
  await writeFile(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

describe('corpus file forms', () => {
  it('reads {title, text}, {title, passage} and FlashRAG {id, contents} records', async () => {
    const file = await write('mixed.jsonl', [
      { title: 'Ilse Varga', text: 'Ilse Varga was a film director. She was born in Debrecen.' },
      { title: 'Debrecen', passage: 'Debrecen is a city in Hungary.' },
      { id: '7', contents: '"Moonfall Harbor"\nMoonfall Harbor is a 1961 film. It was directed by Ilse Varga.' },
      { id: 8, contents: 'Brittany\nBrittany is a peninsula.' },
    ]);
    const passages = await loadCorpus(file);
    expect(passages.map((p) => [p.id, p.title, p.text])).toEqual([
      [passageId('Ilse Varga', 'Ilse Varga was a film director. She was born in Debrecen.'), 'Ilse Varga', 'Ilse Varga was a film director. She was born in Debrecen.'],
      [passageId('Debrecen', 'Debrecen is a city in Hungary.'), 'Debrecen', 'Debrecen is a city in Hungary.'],
      ['7', 'Moonfall Harbor', 'Moonfall Harbor is a 1961 film. It was directed by Ilse Varga.'],
      ['8', 'Brittany', 'Brittany is a peninsula.'],
    ]);
    expect(passages[2]?.sentences).toEqual(['Moonfall Harbor is a 1961 film.', 'It was directed by Ilse Varga.']);
  });

  it('names the file, line and field of a bad record in each form', async () => {
    const noText = await write('a.jsonl', [{ title: 'T', text: 'x' }, { title: 'U', body: 'y' }]);
    await expect(loadCorpus(noText)).rejects.toMatchObject({ location: { file: noText, line: 2, field: 'text' } });
    const badPassage = await write('b.jsonl', [{ title: 'T', passage: 3 }]);
    await expect(loadCorpus(badPassage)).rejects.toMatchObject({ location: { file: badPassage, line: 1, field: 'passage' } });
    const badContents = await write('c.jsonl', [{ id: '1', contents: 'T\nx' }, '', { id: '2', contents: ['not', 'text'] }]);
    const error = (await loadCorpus(badContents).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file: badContents, line: 3, field: 'contents' });
    expect(error.message).toContain(`${badContents}:3: field \`contents\``);
  });

  it('identifies a corpus file by its content: the same bytes give the same hash, an edit another', async () => {
    const a = await write('wiki.jsonl', [{ title: 'T', text: 'one' }]);
    const b = await write('wiki.jsonl', [{ title: 'T', text: 'one' }]);
    const c = await write('wiki.jsonl', [{ title: 'T', text: 'two' }]);
    const [fa, fb, fc] = await Promise.all([loadCorpusFile(a), loadCorpusFile(b), loadCorpusFile(c)]);
    expect(fa.sha1).toBe(fb.sha1);
    expect(fa.sha1).not.toBe(fc.sha1);
    expect(fa.passages).toBe(1);
  });

  it('makes a corpus file alone a dataset without questions', async () => {
    const file = await write('wiki.jsonl', [{ title: 'T', passage: 'one' }, { title: 'U', passage: 'two' }]);
    const ds = await corpusAsDataset(file);
    expect(ds).toMatchObject({ name: 'wiki', source: file, questions: [], contexts: {}, corpusFile: { path: file, passages: 2 } });
    expect(ds.passages.map((p) => p.title)).toEqual(['T', 'U']);
  });
});
