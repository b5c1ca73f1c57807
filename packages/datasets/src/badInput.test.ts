import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { didYouMean, nearest } from '@multihop/core';
import { loadCorpusFile } from './loadCorpus';
import { loadDataset, parseLayout } from './loadDataset';

async function dir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'multihop-datasets-bad-'));
}

async function write(name: string, text: string | Buffer): Promise<string> {
  const file = join(await dir(), name);
  await writeFile(file, text);
  return file;
}

const hotpot = (id: string, context: Array<[string, string[]]>, facts: Array<[string, number]> = []) =>
  JSON.stringify({ _id: id, question: `question ${id}?`, answer: 'x', context, supporting_facts: facts });

describe('did you mean', () => {
  it('finds the nearest names by edit distance, and nothing for a far one', () => {
    expect(nearest('hotpotqa-dve', ['hotpotqa-dev', 'musique-dev', 'hotpotqa-train'])).toEqual(['hotpotqa-dev']);
    expect(didYouMean('hotpt', ['hotpot', 'hf-hotpot', 'ircot'])).toBe(' (did you mean "hotpot"?)');
    expect(didYouMean('musique-de', ['musique-dev', 'musique-train', '2wiki-dev'])).toBe(' (did you mean "musique-dev"?)');
    expect(didYouMean('bamboogle', ['hotpot', 'ircot', 'qa'])).toBe('');
  });

  it('suggests a layout for a typo', () => {
    expect(() => parseLayout('hotpt')).toThrow(/unknown layout "hotpt" \(did you mean "hotpot"/);
  });
});

describe('a dataset argument that names nothing', () => {
  it('lists the shared datasets with a did-you-mean for a typo of a name', async () => {
    const error = (await loadDataset('hotpotqa-dve', { datasetsDir: await dir() }).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^unknown dataset "hotpotqa-dve" \(did you mean "hotpotqa-dev"\?\)/);
    expect(error.message).toContain('musique-train');
    expect(error.message).not.toContain('ENOENT');
    expect(error.location.field).toBe('dataset');
  });

  it('names the path of a missing file', async () => {
    const missing = join(await dir(), 'nope.jsonl');
    await expect(loadDataset(missing)).rejects.toThrow(`dataset file ${missing} does not exist`);
  });

  it('says a directory is a directory and lists its data files', async () => {
    const file = await write('questions.jsonl', hotpot('a', [['T', ['s.']]]));
    const folder = join(file, '..');
    const error = (await loadDataset(folder).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`${folder} is a directory, not a file; give one of its files: ${file}`);
  });
});

describe('bytes that are not UTF-8', () => {
  it('names the file, the line and the byte', async () => {
    const latin1 = Buffer.concat([Buffer.from(`${hotpot('a', [['T', ['s.']]])}\n{"_id": "b", "question": "caf`), Buffer.from([0xe9]), Buffer.from('?"}\n')]);
    const file = await write('latin1.jsonl', latin1);
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line: 2 });
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not UTF-8 text \\(byte 0xE9 at byte 30 of the line\\)`));
  });

  it('accepts every well-formed sequence (2, 3 and 4 bytes) and a byte order mark', async () => {
    const file = await write('utf8.jsonl', `\ufeff${hotpot('a', [['Ωé 中 😀', ['s.']]])}\n`);
    const ds = await loadDataset(file);
    expect(ds.passages[0]?.title).toBe('Ωé 中 😀');
  });

  it('reads a file saved as UTF-16 with its byte-order mark (a spreadsheet\'s "Unicode text"), either byte order', async () => {
    const text = `${hotpot('a', [['Zürich', ['Zürich is a city.']]])}\n`;
    const le = await write('le.jsonl', Buffer.from(`\ufeff${text}`, 'utf16le'));
    expect((await loadDataset(le)).passages[0]?.title).toBe('Zürich');
    const be = await write('be.jsonl', Buffer.from(`\ufeff${text}`, 'utf16le').swap16());
    expect((await loadDataset(be)).passages[0]?.title).toBe('Zürich');
  });

  it('stores text in one Unicode encoding (NFC): a passage and a question written with combining marks read as composed letters', async () => {
    const file = await write('nfd.jsonl', `${JSON.stringify({ _id: 'a', question: 'Which country is Malmo\u0308 in?', answer: 'Swe\u0301den', context: [['Malmo\u0308', ['Malmo\u0308 is in Sweden.']]], supporting_facts: [['Malmö', 0]] })}\n`);
    const ds = await loadDataset(file);
    expect([ds.questions[0]?.text, ds.questions[0]?.answer, ds.passages[0]?.title, ds.passages[0]?.text]).toEqual(['Which country is Malmö in?', 'Swéden', 'Malmö', 'Malmö is in Sweden.']);
    expect(ds.questions[0]?.supportingIds).toEqual([ds.passages[0]?.id]);
  });

  it('rejects an encoded surrogate and a truncated sequence at the end', async () => {
    const surrogate = await write('s.jsonl', Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}\n')]));
    await expect(loadDataset(surrogate)).rejects.toThrow(/:1: not UTF-8 text \(byte 0xED at byte 8 of the line\)/);
    const truncated = await write('t.jsonl', Buffer.concat([Buffer.from('{"a": 1}\n\n'), Buffer.from([0xe4, 0xb8])]));
    await expect(loadDataset(truncated)).rejects.toThrow(/:3: not UTF-8 text \(byte 0xE4 at byte 1 of the line\)/);
  });
});

describe('empty content', () => {
  it('warns about a question without paragraphs and a paragraph without text, naming file, line and question', async () => {
    const file = await write('thin.jsonl', [hotpot('a', [['T', ['s.']]], [['T', 0]]), hotpot('b', []), hotpot('c', [['Blank', ['', ' ']], ['U', ['u.']]])].join('\n'));
    const ds = await loadDataset(file, { setting: 'closed' });
    expect(ds.contentWarnings).toEqual([
      `${file}: 1 question brings no paragraphs (an empty context): question b (${file}:2); in the closed setting retrieval finds nothing for them`,
      `${file}: 1 paragraph has no text: "Blank" of question c (${file}:3); kept, but only their titles can be found`,
    ]);
    expect(ds.warnings).toEqual(expect.arrayContaining(ds.contentWarnings ?? []));
    const open = await loadDataset(file, { setting: 'open' });
    expect(open.contentWarnings?.[0]).toMatch(/they are searched in the pool/);
  });

  it('has no content warnings for a sound file', async () => {
    const file = await write('ok.jsonl', hotpot('a', [['T', ['s.']]], [['T', 0]]));
    expect((await loadDataset(file)).contentWarnings).toEqual([]);
  });
});

describe('a corpus file', () => {
  it('warns about an id given to two different passages (keeping the first) and about passages without text', async () => {
    const file = await write(
      'corpus.jsonl',
      [
        { id: 'p1', title: 'A', text: 'alpha' },
        { id: 'p1', title: 'A', text: 'alpha' },
        { id: 'p1', title: 'B', text: 'beta' },
        { id: 'p2', title: 'C', text: '  ' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const loaded = await loadCorpusFile(file);
    expect(loaded.added.map((p) => [p.id, p.title])).toEqual([
      ['p1', 'A'],
      ['p2', 'C'],
    ]);
    expect(loaded.warnings).toEqual([
      `${file}: 1 id is given to two different passages: "p1" (lines 1 and 3); the first of each is kept (give every passage its own id)`,
      `${file}: 1 passage has no text: "C" (line 4); kept, but only their titles can be found`,
    ]);
    const questions = await write('q.jsonl', JSON.stringify({ id: 'q1', question: 'alpha?', answers: ['alpha'], supporting_ids: ['p1'] }));
    expect((await loadDataset(questions, { corpus: file })).contentWarnings).toEqual(loaded.warnings);
  });

  it('that is a directory says so', async () => {
    const folder = await dir();
    await expect(loadCorpusFile(folder)).rejects.toThrow(`corpus file ${folder} is a directory, not a file`);
  });

  it('that does not exist is named as the corpus file, with the field it came from', async () => {
    const missing = join(await dir(), 'nope.jsonl');
    const error = await loadCorpusFile(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`corpus file ${missing} does not exist`);
    expect((error as InputError).location).toEqual({ file: missing, field: 'corpus' });
  });
});
