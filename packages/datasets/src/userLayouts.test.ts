import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { LAYOUTS } from './Dataset';
import { loadDataset } from './loadDataset';
import { passageId } from './passageId';

async function write(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'multihop-layouts-')), name);
  await writeFile(file, text);
  return file;
}
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

const VARGA = ['Ilse Varga (1920-1990) was a film director.', ' She was born in Debrecen, Hungary.'];
const MOONFALL = ['Moonfall Harbor is a 1961 drama film directed by Ilse Varga.'];

describe('layouts users bring', () => {
  it('reads a Bamboogle-style CSV (Question,Answer) as closed-book questions, aliases split on |', async () => {
    const file = await write('bamboogle.csv', 'Question,Answer\n"Who directed Moonfall Harbor, the film?",Ilse Varga\nWhere was Ilse Varga born?,"Debrecen | Debrecen, Hungary"\n');
    const ds = await loadDataset(file);
    expect(ds.layout).toBe('qa');
    expect(ds.questions.map((q) => [q.id, q.text, q.answer, q.aliases])).toEqual([
      ['0', 'Who directed Moonfall Harbor, the film?', 'Ilse Varga', []],
      ['1', 'Where was Ilse Varga born?', 'Debrecen', ['Debrecen, Hungary']],
    ]);
    expect(ds.passages).toEqual([]);
    expect(ds.warnings.join('\n')).toMatch(/closed-book/);
  });

  it('reads a TSV with an id column, and searches a corpus file given with it', async () => {
    const file = await write('set.tsv', 'id\tquestion\tanswer\ttype\nq7\tWho directed Moonfall Harbor?\tIlse Varga\tbridge\n');
    const corpus = await write('wiki.jsonl', jsonl([{ title: 'Moonfall Harbor', text: MOONFALL[0] }]));
    const ds = await loadDataset(file, { corpus });
    expect(ds.questions[0]).toMatchObject({ id: 'q7', type: 'bridge', answer: 'Ilse Varga' });
    expect(ds.passages).toHaveLength(1);
    expect(ds.warnings).toEqual([]);
  });

  it('reads FlashRAG JSONL (golden_answers, metadata.type, supporting-fact titles resolved in the corpus)', async () => {
    const file = await write('flashrag.jsonl', jsonl([
      { id: 'test_0', question: 'Where was the director of Moonfall Harbor born?', golden_answers: ['Hungary', 'Debrecen'], metadata: { type: 'bridge', supporting_facts: { title: ['Moonfall Harbor', 'Ilse Varga'], sent_id: [0, 1] } } },
      { question: 'Capital of Hungary?', answer: ['Budapest', 'Budapest, Hungary'] },
    ]));
    const corpus = await write('wiki.jsonl', jsonl([{ id: 'w1', contents: '"Ilse Varga"\nIlse Varga was a film director. She was born in Debrecen.' }]));
    const ds = await loadDataset(file, { corpus });
    expect(ds.layout).toBe('qa');
    expect(ds.questions[0]).toMatchObject({ id: 'test_0', answer: 'Hungary', aliases: ['Debrecen'], type: 'bridge', supportingIds: ['w1'], hops: 2 });
    expect(ds.questions[1]).toMatchObject({ id: '1', answer: 'Budapest', aliases: ['Budapest, Hungary'], supportingIds: [] });
    expect(ds.unresolvedGold).toEqual({ test_0: ['Moonfall Harbor'] });
    expect(ds.warnings.join('\n')).toMatch(/1 gold title of 1 question match no passage of the pool \(1 did\)/);
  });

  it('reads FRAMES TSV: Prompt, Answer, reasoning_types, gold titles from the wiki_links list literal', async () => {
    const links = `['https://en.wikipedia.org/wiki/Ender%27s_Game', "https://en.wikipedia.org/wiki/Orson_Scott_Card#Life", 'https://en.wikipedia.org/wiki/Hugo_Award']`;
    const row = ['0', 'How many years after the author of the novel was born did it win the Hugo?', '34', 'https://en.wikipedia.org/wiki/Ender%27s_Game', 'Numerical reasoning |Multiple constraints', `"${links.replace(/"/g, '""')}"`];
    const file = await write('test.tsv', `\tPrompt\tAnswer\twikipedia_link_1\treasoning_types\twiki_links\n${row.join('\t')}\n`);
    const corpus = await write('wiki.jsonl', jsonl([
      { title: "Ender's Game", text: "Ender's Game is a 1985 novel by Orson Scott Card." },
      { title: 'Orson Scott Card', text: 'Orson Scott Card (born 1951) is an American writer.' },
    ]));
    const ds = await loadDataset(file, { corpus, setting: 'open' });
    expect(ds.layout).toBe('frames');
    const q = ds.questions[0]!;
    expect(q).toMatchObject({ id: '0', answer: '34', type: 'Numerical reasoning | Multiple constraints', hops: 3 });
    expect(q.supportingIds).toEqual([
      passageId("Ender's Game", "Ender's Game is a 1985 novel by Orson Scott Card."),
      passageId('Orson Scott Card', 'Orson Scott Card (born 1951) is an American writer.'),
    ]);
    expect(ds.unresolvedGold).toEqual({ '0': ['Hugo Award'] });
  });

  it('reads FRAMES as JSON with the wikipedia_link_N columns when wiki_links is absent, closed-book without a corpus', async () => {
    const file = await write('frames.json', JSON.stringify([{ Prompt: 'Q?', Answer: 'A', wikipedia_link_1: 'https://en.wikipedia.org/wiki/A_B', 'wikipedia_link_11+': "['https://en.wikipedia.org/wiki/C']" }]));
    const ds = await loadDataset(file);
    expect(ds.layout).toBe('frames');
    expect(ds.questions[0]).toMatchObject({ id: '0', supportingIds: [], hops: 2 });
    expect(ds.unresolvedGold).toEqual({ '0': ['A B', 'C'] });
    expect(ds.passages).toEqual([]);
  });

  it('names the row of a FRAMES wiki_links cell that is not a list', async () => {
    const file = await write('test.tsv', 'Prompt\tAnswer\twiki_links\nQ?\tA\thttps://x\n');
    await expect(loadDataset(file)).rejects.toMatchObject({ location: { file, line: 2, field: 'wiki_links' } });
  });

  it('reads MoreHopQA JSON: gold from the decomposition titles, no_of_hops, reasoning_type, its own context', async () => {
    const record = {
      _id: 'm1',
      question: 'What is the last letter of the first name of the director of Moonfall Harbor?',
      answer: 'e',
      previous_question: 'Who directed Moonfall Harbor?',
      previous_answer: 'Ilse Varga',
      question_decomposition: [
        { sub_id: '1', question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', paragraph_support_title: 'moonfall harbor' },
        { sub_id: '2', question: 'What is the last letter of Ilse?', answer: 'e', paragraph_support_title: '' },
      ],
      context: [['Moonfall Harbor', MOONFALL], ['Ilse Varga', VARGA]],
      answer_type: 'string',
      no_of_hops: 2,
      reasoning_type: 'Symbolic',
    };
    const file = await write('morehopqa.json', JSON.stringify([record], null, 2));
    const ds = await loadDataset(file);
    expect(ds.layout).toBe('morehopqa');
    const moonfall = passageId('Moonfall Harbor', MOONFALL.join(' '));
    expect(ds.questions[0]).toMatchObject({ id: 'm1', answer: 'e', type: 'Symbolic', hops: 2, supportingIds: [moonfall] });
    expect(ds.questions[0]?.decomposition).toEqual([
      { question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', supportingIds: [moonfall] },
      { question: 'What is the last letter of Ilse?', answer: 'e', supportingIds: [] },
    ]);
    expect(ds.contexts.m1).toHaveLength(2);
  });

  it('reads MoreHopQA as the Hugging Face export (column-wise context and decomposition, no id)', async () => {
    const record = {
      question: 'Q?',
      answer: 7,
      previous_question: 'P?',
      previous_answer: 'Ilse Varga',
      context: { title: ['Ilse Varga'], paragraphs: [VARGA] },
      question_decomposition: { sub_id: ['1', '2'], question: ['a?', 'b?'], answer: ['Ilse Varga', '7'], paragraph_support_title: ['Ilse Varga', ''] },
      no_of_hops: 2,
      reasoning_type: 'Arithmetic',
    };
    const ds = await loadDataset(await write('verified.jsonl', jsonl([record])));
    expect(ds.layout).toBe('morehopqa');
    expect(ds.questions[0]).toMatchObject({ id: '0', answer: '7', supportingIds: [passageId('Ilse Varga', VARGA.join(''))] });
  });

  it('says which layouts exist and what each needs when a file cannot be told, or a layout name is wrong', async () => {
    const file = await write('odd.jsonl', jsonl([{ query_text: 'q', gold: 'a' }]));
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(`${file}:1: cannot detect the layout from fields [query_text, gold]`);
    for (const layout of LAYOUTS) expect(error.message).toContain(`\n  ${layout}: `);
    await expect(loadDataset(file, { layout: 'bamboogle' })).rejects.toThrow(/unknown layout "bamboogle"; the layouts and what each needs:\n {2}ircot: /);
  });
});

// HotpotQA in the Hugging Face layout, fullwiki form: the second question's gold "Ilse Varga" is in
// the first question's context only.
const fullwiki = [
  { id: 'a', question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', type: 'bridge', supporting_facts: { title: ['Moonfall Harbor', 'Ilse Varga'], sent_id: [0, 1] }, context: { title: ['Moonfall Harbor', 'Ilse Varga'], sentences: [MOONFALL, VARGA] } },
  { id: 'b', question: 'Where was the director of Moonfall Harbor born?', answer: 'Hungary', type: 'bridge', supporting_facts: { title: ['Moonfall Harbor', 'Ilse Varga'], sent_id: [0, 1] }, context: { title: ['Moonfall Harbor', 'Brittany'], sentences: [MOONFALL, ['Brittany is a peninsula.']] } },
  { id: 'c', question: 'Who wrote Copper Lantern?', answer: 'Tomas Reyes', type: 'comparison', supporting_facts: { title: ['Copper Lantern'], sent_id: [0] }, context: { title: ['Brittany'], sentences: [['Brittany is a peninsula.']] } },
];

describe('gold outside a question\'s own context (HotpotQA fullwiki)', () => {
  it('keeps every question in the open setting: gold resolved in the pool, or listed as unresolved', async () => {
    const file = await write('fullwiki.jsonl', jsonl(fullwiki));
    const ds = await loadDataset(file, { setting: 'open' });
    const varga = passageId('Ilse Varga', VARGA.join(''));
    const b = ds.questions[1]!;
    expect(b.supportingIds).toEqual([passageId('Moonfall Harbor', MOONFALL.join('')), varga]);
    expect(b.supportingSentences).toContainEqual({ passageId: varga, sentence: 1 });
    expect(ds.questions[2]).toMatchObject({ id: 'c', supportingIds: [], type: 'comparison', hops: 1 });
    expect(ds.unresolvedGold).toEqual({ c: ['Copper Lantern'] });
    expect(ds.warnings.join('\n')).toMatch(/1 gold title of 1 question match no passage of the pool \(1 did\).*"Copper Lantern" \(.*fullwiki\.jsonl:3, question c\)/);
  });

  it('refuses it in the closed setting, naming the record and saying that skipInvalid exists', async () => {
    const file = await write('fullwiki.jsonl', jsonl(fullwiki));
    const error = (await loadDataset(file, { setting: 'closed' }).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line: 2, field: 'supporting_facts.title[1]' });
    expect(error.message).toMatch(/2 of 3 records .* are invalid:\n {2}.*fullwiki\.jsonl:3: field `supporting_facts.title\[0\]`/);
    expect(error.message).toMatch(/`skipInvalid` \(--skip-invalid\) loads the 1 valid ones/);
  });

  it('with skipInvalid loads the valid records, reports the skipped ones, and drops their paragraphs', async () => {
    const file = await write('fullwiki.jsonl', jsonl(fullwiki));
    const ds = await loadDataset(file, { setting: 'closed', skipInvalid: true });
    expect(ds.questions.map((q) => q.id)).toEqual(['a']);
    expect(ds.skipped.map((p) => [p.line, p.field])).toEqual([[2, 'supporting_facts.title[1]'], [3, 'supporting_facts.title[0]']]);
    expect(ds.skipped[0]?.message).toContain(`${file}:2:`);
    expect(ds.warnings[0]).toMatch(/skipped 2 invalid records of 3:\n {2}.*:2: field/);
    // Brittany came only with the skipped records.
    expect(ds.passages.map((p) => p.title)).toEqual(['Moonfall Harbor', 'Ilse Varga']);
  });

  it('skips a record of a schema error and a repeated id too, but fails when no record is valid', async () => {
    const file = await write('mixed.jsonl', jsonl([fullwiki[0], { ...fullwiki[0], question: 5 }, fullwiki[0]]));
    const ds = await loadDataset(file, { skipInvalid: true });
    expect(ds.questions).toHaveLength(1);
    expect(ds.skipped.map((p) => p.field)).toEqual(['question', 'id']);
    const bad = await write('bad.jsonl', jsonl([{ ...fullwiki[0], question: 5 }]));
    await expect(loadDataset(bad, { skipInvalid: true })).rejects.toThrow(/1 of 1 records .* are invalid \(is the layout right\? it was read as hf-hotpot\)/);
  });
});
