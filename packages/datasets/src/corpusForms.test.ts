import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { readFileSync } from 'node:fs';
import { loadDataset } from './loadDataset';
import { corpusAsDataset, loadCorpus, loadCorpusFile } from './loadCorpus';
import { resolveDatasetsDir } from './resolveDatasetsDir';
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

  it("holds a question's paragraph once when a corpus file with its own ids has it: gold points at the corpus file's id, with the dataset's sentences", async () => {
    // HotpotQA train 5a77ec115542992a6e59dff7 ("If Gallu is a demon Lilu is what?"), its ten
    // paragraphs also given as a corpus file whose passages carry ids of their own (doc0 ... doc9),
    // as a corpus built from the questions' paragraphs has.
    const [record] = (JSON.parse(readFileSync(join(resolveDatasetsDir(), 'hotpotqa/train-100.json'), 'utf8')) as Array<{ _id: string; context: Array<[string, string[]]> }>).filter((r) => r._id === '5a77ec115542992a6e59dff7');
    const dir = await mkdtemp(join(tmpdir(), 'multihop-corpus-'));
    const questions = join(dir, 'gallu.json');
    await writeFile(questions, JSON.stringify([record]));
    const corpus = await write('wiki.jsonl', record!.context.map(([title, sentences], i) => ({ id: `doc${i}`, title, text: sentences.join('') })));
    const alone = await loadDataset(questions, { setting: 'open' });
    const ds = await loadDataset(questions, { setting: 'open', corpus });
    expect(ds.passages).toHaveLength(10);
    const [q] = ds.questions;
    // Alû and Lilu (mythology) are paragraphs 9 and 5 of the record.
    expect(q!.supportingIds).toEqual(['doc9', 'doc5']);
    expect(ds.contexts[q!.id]).toEqual(record!.context.map((_, i) => `doc${i}`));
    // The supporting facts index the dataset's sentence list, which the pooled passage now has.
    expect(q!.supportingSentences).toEqual([{ passageId: 'doc9', sentence: 3 }, { passageId: 'doc5', sentence: 0 }]);
    const alu = ds.passages.find((p) => p.id === 'doc9')!;
    expect(alu.sentences[3]).toBe(alone.passages.find((p) => p.title === 'Alû')!.sentences[3]);
  });
});
