import { join } from 'node:path';
import { loadDataset } from './loadDataset';
import { passageId, sentenceId } from './passageId';
import { goldSentenceIds } from './goldSentenceIds';
import type { Layout } from './Dataset';

const fixture = (name: string) => join(__dirname, '../test/fixtures', name);

// The same two questions are written in every layout, so every loader must produce the same gold.
const cases: Array<[Layout, string]> = [
  ['ircot', 'ircot.jsonl'],
  ['hotpot', 'hotpot.json'],
  ['hf-hotpot', 'hf-hotpot.jsonl'],
  ['musique', 'musique.jsonl'],
];

describe('layouts', () => {
  it.each(cases)('detects and reads the %s layout', async (layout, file) => {
    const ds = await loadDataset(fixture(file));
    expect(ds.layout).toBe(layout);
    expect(ds.questions).toHaveLength(2);
    const [q1] = ds.questions;
    expect(q1?.text).toBe('In which country was the director of Moonfall Harbor born?');
    expect(q1?.answer).toBe('Hungary');
    const moonfall = passageId('Moonfall Harbor', 'Moonfall Harbor is a 1961 drama film directed by Ilse Varga. It was shot on the coast of Brittany.');
    const varga = passageId('Ilse Varga', 'Ilse Varga (1920-1990) was a film director. She was born in Debrecen, Hungary.');
    expect(q1?.supportingIds).toEqual([moonfall, varga]);
    expect(ds.contexts[q1?.id ?? '']).toHaveLength(4);
    // "Debrecen" is in both questions' contexts: pooled once.
    expect(ds.passages).toHaveLength(6);
    expect(ds.passages.find((p) => p.id === varga)?.sentences).toEqual([
      'Ilse Varga (1920-1990) was a film director.',
      'She was born in Debrecen, Hungary.',
    ]);
  });

  it.each([['hotpot', 'hotpot.json'], ['hf-hotpot', 'hf-hotpot.jsonl']])('keeps sentence-level facts of the %s layout', async (_layout, file) => {
    const ds = await loadDataset(fixture(file));
    const q1 = ds.questions[0];
    expect(q1?.supportingSentences).toEqual([
      { passageId: q1?.supportingIds[0], sentence: 0 },
      { passageId: q1?.supportingIds[1], sentence: 1 },
    ]);
    expect(goldSentenceIds(q1!)).toEqual([sentenceId(q1!.supportingIds[0]!, 0), sentenceId(q1!.supportingIds[1]!, 1)]);
    // The sentence the fact names is the one the passage's sentence list holds at that index.
    expect(ds.passages.find((p) => p.id === q1?.supportingIds[1])?.sentences[1]).toBe('She was born in Debrecen, Hungary.');
  });

  it('reads MuSiQue aliases, hop type and hop-ordered gold', async () => {
    const ds = await loadDataset(fixture('musique.jsonl'));
    const q = ds.questions[1];
    expect(q?.id).toBe('2hop__q2');
    expect(q?.aliases).toEqual(['University of Valparaiso (alias)']);
    expect(q?.type).toBe('2hop');
    expect(q?.hops).toBe(2);
    expect(q?.supportingIds[0]).toMatch(/^Copper Lantern#/);
    expect(q?.decomposition).toEqual([
      { question: 'x', answer: 'y', supportingIds: [q!.supportingIds[0]] },
      { question: '#1 >> z', answer: 'University of Valparaiso', supportingIds: [q!.supportingIds[1]] },
    ]);
  });

  it('reads plain JSONL questions over a corpus file with its own ids', async () => {
    const ds = await loadDataset(fixture('plain.jsonl'), { corpus: fixture('plain.corpus.jsonl') });
    expect(ds.layout).toBe('plain');
    expect(ds.questions[0]).toMatchObject({ id: 'q1', answer: 'Hungary', aliases: ['HUNGARY'], supportingIds: ['p0', 'p1'] });
    expect(ds.passages.map((p) => p.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(ds.contexts).toEqual({});
  });

  it('reads IRCoT number and date answers when there are no spans', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const file = join(await mkdtemp(join(tmpdir(), 'multihop-ircot-')), 'numbers.jsonl');
    const record = (id: string, answer: object) =>
      JSON.stringify({ question_id: id, question_text: 'q?', answers_objects: [answer], contexts: [{ id: '0', title: 'T', paragraph_text: 'P.', is_supporting: true }] });
    await writeFile(file, [record('n', { number: '42', spans: [] }), record('d', { number: '', date: { day: '4', month: 'July', year: '1776' }, spans: [] })].join('\n'));
    const ds = await loadDataset(file);
    expect(ds.questions.map((q) => q.answer)).toEqual(['42', '4 July 1776']);
  });

  it('honours a layout override', async () => {
    await expect(loadDataset(fixture('ircot.jsonl'), { layout: 'musique' })).rejects.toThrow(/ircot\.jsonl:1: field `id`/);
  });

  it('limits to the first questions and their paragraphs', async () => {
    const ds = await loadDataset(fixture('hotpot.json'), { limit: 1 });
    expect(ds.questions.map((q) => q.id)).toEqual(['q1']);
    expect(ds.passages).toHaveLength(4);
  });
});
