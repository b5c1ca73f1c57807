import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@multihop/core';
import { NO_GOLD } from './validateRecord';
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

  it('says a missing id is missing, and a JSON array named .jsonl is one array', async () => {
    const noId = await write('noid.jsonl', [JSON.stringify({ id: 'a', question: 'q?', answers: ['x'] }), JSON.stringify({ question: 'r?', answers: ['y'] })].join('\n'));
    await expect(loadDataset(noId)).rejects.toThrow(`${noId}:2: field \`id\`: missing (required)`);
    for (const text of [JSON.stringify([{ id: 'a', question: 'q?', answers: ['x'] }]), `[\n  ${JSON.stringify({ id: 'a', question: 'q?', answers: ['x'] })}\n]\n`]) {
      const file = await write('array.jsonl', text);
      await expect(loadDataset(file)).rejects.toThrow(`${file} holds one JSON array, not JSON Lines (one record a line): name it .json, or write one record a line`);
    }
  });

  it('names the line of a JSON syntax error', async () => {
    const file = await write('syntax.json', '[\n  {"_id": "a"},\n  {"_id": }\n]');
    await expect(loadDataset(file)).rejects.toMatchObject({ location: { file, line: 3 } });
  });

  it('names the line of a broken indented object corpus ({title: [sentences]}), not its opening brace', async () => {
    // HippoRAG's corpus shape, indented as the shared HotpotQA train corpus is: a stray word in the third member, then a cut-off end.
    const members = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((t) => `  "${t}": [\n    "${t} is a place.",\n    "It is old."\n  ]`);
    const broken = `{\n${members.map((m, i) => (i === 2 ? m.replace('"It is old."', '"It is old." oops') : m)).join(',\n')}\n}\n`;
    const file = await write('corpus.json', broken);
    // "Gamma" takes lines 10-13 (four lines a member after the opening brace); the stray word is on line 12.
    await expect(loadCorpus(file)).rejects.toMatchObject({ location: { file, line: 12 } });
    const cut = await write('cut.json', `{\n${members.join(',\n')}\n}\n`.slice(0, -20));
    const error = (await loadCorpus(cut).catch((e: unknown) => e)) as InputError;
    expect(error.location.line).toBeGreaterThan(10);
    expect(error.message).toMatch(/^.*cut\.json:\d+: not valid JSON/);
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

// An empty gold answer would score every prediction wrong: in every layout it is an invalid record,
// refused naming the file, the line and the field, and left out (with the reason) with skipInvalid.
describe('an empty gold answer', () => {
  const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');
  // A JSON array with one record per line: record i starts on line i + 2.
  const array = (records: unknown[]) => `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;

  const ircot = (id: string, answer: object) => ({ question_id: id, question_text: `${id}?`, answers_objects: [answer], contexts: [{ title: `T${id}`, paragraph_text: `P ${id}.`, is_supporting: true }] });
  const hotpot = (id: string, answer: string) => ({ _id: id, question: `${id}?`, answer, type: 'bridge', context: [[`T${id}`, [`s ${id}.`]]], supporting_facts: [[`T${id}`, 0]] });
  // 2WikiMultiHopQA is read by the hotpot layout (its extra fields are ignored).
  const twoWiki = (id: string, answer: string) => ({ ...hotpot(id, answer), type: 'compositional', evidences: [['A', 'director', 'B']], entity_ids: 'Q1_Q2', answer_id: 'Q2' });
  const hfHotpot = (id: string, answer: string) => ({ id, question: `${id}?`, answer, type: 'bridge', context: { title: [`T${id}`], sentences: [[`s ${id}.`]] }, supporting_facts: { title: [`T${id}`], sent_id: [0] } });
  const musique = (id: string, answer: string, extra: object = {}) => ({ id: `2hop__${id}`, question: `${id}?`, answer, answer_aliases: [], answerable: true, paragraphs: [{ idx: 0, title: `T${id}`, paragraph_text: `P ${id}.`, is_supporting: true }], ...extra });
  const moreHop = (id: string, answer: string) => ({ _id: id, question: `${id}?`, answer, previous_question: 'p?', previous_answer: 'x', context: [[`T${id}`, [`s ${id}.`]]], question_decomposition: [{ question: 'a?', answer: 'x', paragraph_support_title: `T${id}` }], no_of_hops: 1, reasoning_type: 'Symbolic' });
  const plain = (id: string, answers: string[]) => ({ id, question: `${id}?`, answers });

  // [layout, file name, contents with records a (good), b (empty answer), c (good), the bad record's line, its field, the message]
  const cases: Array<[string, string, string, number, string, string]> = [
    ['ircot', 'ircot.jsonl', lines([ircot('a', { spans: ['x'] }), ircot('b', { spans: [] }), ircot('c', { spans: ['y'] })]), 2, 'answers_objects', 'is empty (no span, number or date)'],
    ['ircot', 'blank-spans.jsonl', lines([ircot('a', { spans: ['x'] }), ircot('b', { number: '', date: { day: '', month: '', year: '' }, spans: ['', '  '] }), ircot('c', { spans: ['y'] })]), 2, 'answers_objects', 'is empty (no span, number or date)'],
    ['hotpot', 'hotpot.json', array([hotpot('a', 'x'), hotpot('b', ''), hotpot('c', 'y')]), 3, 'answer', 'is empty'],
    ['hotpot', '2wiki.json', array([twoWiki('a', 'x'), twoWiki('b', '  '), twoWiki('c', 'y')]), 3, 'answer', 'is empty'],
    ['hf-hotpot', 'hf.jsonl', lines([hfHotpot('a', 'x'), hfHotpot('b', ''), hfHotpot('c', 'y')]), 2, 'answer', 'is empty'],
    ['musique', 'musique.jsonl', lines([musique('a', 'x'), musique('b', ' '), musique('c', 'y')]), 2, 'answer', 'is empty'],
    ['morehopqa', 'morehopqa.json', array([moreHop('a', 'x'), moreHop('b', ''), moreHop('c', 'y')]), 3, 'answer', 'is empty'],
    ['frames', 'frames.tsv', 'Prompt\tAnswer\twiki_links\na?\tx\t[]\nb?\t \t[]\nc?\ty\t[]\n', 3, 'Answer', 'is empty'],
    ['plain', 'plain.jsonl', lines([plain('a', ['x']), plain('b', ['', ' ']), plain('c', ['y'])]), 2, 'answers', 'is empty'],
    ['qa', 'qa.csv', 'question,answer\na?,x\nb?, \nc?,y\n', 3, 'answer', 'is empty'],
  ];

  it.each(cases)('%s (%s): refused naming the file, line and field', async (layout, name, text, line, field, message) => {
    const file = await write(name, text);
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line, field });
    expect(error.message).toBe(`${file}:${line}: field \`${field}\`: ${message}\n1 of 3 records of ${file} are invalid; \`skipInvalid\` (--skip-invalid) loads the 2 valid ones and reports the rest`);
    // The layout was told right: the record is refused for its answer, not for its shape.
    const ds = await loadDataset(file, { skipInvalid: true });
    expect(ds.layout).toBe(layout);
  });

  it.each(cases)('%s (%s): skipInvalid keeps the other records and reports the skipped one with the reason', async (_layout, name, text, line, field, message) => {
    const file = await write(name, text);
    const ds = await loadDataset(file, { skipInvalid: true });
    expect(ds.questions.map((q) => q.answer)).toEqual(['x', 'y']);
    expect(ds.questions.map((q) => q.text.replace(/\?$/, ''))).toEqual(['a', 'c']);
    expect(ds.skipped).toEqual([{ line, field, message: `${file}:${line}: field \`${field}\`: ${message}` }]);
    expect(ds.warnings).toContain(`${file}: skipped 1 invalid record of 3:\n  ${file}:${line}: field \`${field}\`: ${message}`);
    // The skipped record's paragraphs left the pool with it.
    expect(ds.passages.map((p) => p.title)).not.toContain('Tb');
  });

  // A blank question would be sent to the model and scored wrong; a blank id names no trace file. [layout, file, contents, line, field]
  const blanks: Array<[string, string, string, number, string]> = [
    ['ircot', 'ircot-q.jsonl', lines([ircot('a', { spans: ['x'] }), { ...ircot('b', { spans: ['z'] }), question_text: '  ' }, ircot('c', { spans: ['y'] })]), 2, 'question_text'],
    ['ircot', 'ircot-id.jsonl', lines([ircot('a', { spans: ['x'] }), { ...ircot('b', { spans: ['z'] }), question_id: ' ' }, ircot('c', { spans: ['y'] })]), 2, 'question_id'],
    ['hotpot', 'hotpot-q.json', array([hotpot('a', 'x'), { ...hotpot('b', 'z'), question: '' }, hotpot('c', 'y')]), 3, 'question'],
    ['hotpot', 'hotpot-id.json', array([hotpot('a', 'x'), { ...hotpot('b', 'z'), _id: '' }, hotpot('c', 'y')]), 3, '_id'],
    ['hf-hotpot', 'hf-q.jsonl', lines([hfHotpot('a', 'x'), { ...hfHotpot('b', 'z'), question: '\t' }, hfHotpot('c', 'y')]), 2, 'question'],
    ['musique', 'musique-q.jsonl', lines([musique('a', 'x'), musique('b', 'z', { question: '   ' }), musique('c', 'y')]), 2, 'question'],
    ['musique', 'musique-id.jsonl', lines([musique('a', 'x'), musique('b', 'z', { id: '' }), musique('c', 'y')]), 2, 'id'],
    ['plain', 'plain-q.jsonl', lines([plain('a', ['x']), { ...plain('b', ['z']), question: ' ' }, plain('c', ['y'])]), 2, 'question'],
    ['plain', 'plain-id.jsonl', lines([plain('a', ['x']), plain(' ', ['z']), plain('c', ['y'])]), 2, 'id'],
  ];

  it.each(blanks)('%s (%s): a blank question text or id is refused naming the field, and skipped with --skip-invalid', async (layout, name, text, line, field) => {
    const file = await write(name, text);
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.location).toEqual({ file, line, field });
    expect(error.message.split('\n')[0]).toBe(`${file}:${line}: field \`${field}\`: is empty`);
    const ds = await loadDataset(file, { skipInvalid: true });
    expect({ layout: ds.layout, answers: ds.questions.map((q) => q.answer) }).toEqual({ layout, answers: ['x', 'y'] });
  });

  it('drops blank answers and aliases, keeping the others (IRCoT spans, a number after blank spans, plain answers, MuSiQue aliases)', async () => {
    const ircotFile = await write('ircot.jsonl', lines([ircot('a', { spans: ['', 'x', ' ', 'x2'] }), ircot('b', { number: '42', spans: [''] })]));
    expect((await loadDataset(ircotFile)).questions.map((q) => [q.answer, q.aliases])).toEqual([['x', ['x2']], ['42', []]]);
    const plainFile = await write('plain.jsonl', lines([plain('a', ['', 'x', 'x2'])]));
    expect((await loadDataset(plainFile)).questions[0]).toMatchObject({ answer: 'x', aliases: ['x2'] });
    const musiqueFile = await write('musique.jsonl', lines([musique('a', 'x', { answer_aliases: ['', ' ', 'x2'] })]));
    expect((await loadDataset(musiqueFile)).questions[0]).toMatchObject({ answer: 'x', aliases: ['x2'] });
  });

  it('leaves out MuSiQue-Full unanswerable twins (answerable: false, the same id as their answerable question), counting them in a warning', async () => {
    // MuSiQue-Full gives each question twice under one id: answerable, and a twin whose supporting
    // paragraph is replaced, which MuSiQue's evaluator scores on no answer.
    const twin = (id: string) => musique(id, 'x', { answerable: false, paragraphs: [{ idx: 0, title: `U${id}`, paragraph_text: `Q ${id}.`, is_supporting: false }] });
    const file = await write('musique-full.jsonl', lines([musique('a', 'x'), twin('a'), twin('b'), musique('b', '')]));
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    // The answerable b has an empty answer: still refused; the twins are not what is wrong.
    expect(error.message).toContain(`${file}:4: field \`answer\`: is empty\n1 of 4 records`);
    const good = await write('musique-full-good.jsonl', lines([musique('a', 'x'), twin('a'), twin('b'), musique('b', 'y')]));
    const ds = await loadDataset(good, { setting: 'open' });
    expect(ds.skipped).toEqual([]);
    expect(ds.questions.map((q) => [q.id, q.answer])).toEqual([['2hop__a', 'x'], ['2hop__b', 'y']]);
    // Their paragraphs are not in the pool either.
    expect(ds.passages.map((p) => p.title)).toEqual(['Ta', 'Tb']);
    const warning = `${good}: left out 2 unanswerable questions (\`answerable: false\`: line 2, line 3), as MuSiQue's evaluator scores answers only on answerable ones; 2 answerable questions loaded`;
    expect(ds.contentWarnings).toContain(warning);
    // `limit` counts questions: the twins between them are not among the two.
    expect((await loadDataset(good, { setting: 'open', limit: 2 })).questions.map((q) => q.id)).toEqual(['2hop__a', '2hop__b']);
    expect((await loadDataset(good, { setting: 'open', limit: 1 })).questions.map((q) => q.id)).toEqual(['2hop__a']);
  });

  it('names the record and its id where the whole file is one line of JSON, as HotpotQA and 2Wiki ship theirs', async () => {
    const oneLine = (records: unknown[]) => JSON.stringify(records);
    const file = await write('2wiki-dev.json', oneLine([twoWiki('a', 'x'), twoWiki('b', 'y'), { ...twoWiki('c', 'z'), supporting_facts: [['Tc', '0']] }]));
    const error = (await loadDataset(file).catch((e: unknown) => e)) as InputError;
    expect(error.message.split('\n')[0]).toBe(`${file}:1 (record 3, id "c"): field \`supporting_facts[0][1]\`: Invalid input: expected number, received string`);
    expect(error.location).toEqual({ file, line: 1, field: 'supporting_facts[0][1]' });
    const twice = await write('2wiki-twice.json', oneLine([twoWiki('a', 'x'), twoWiki('a', 'y')]));
    expect(((await loadDataset(twice).catch((e: unknown) => e)) as InputError).message.split('\n')[0]).toBe(`${twice}:1 (record 2, id "a"): field \`id\`: question id "a" appears twice`);
  });

  it('finds a supporting fact whose title is spelt otherwise than its context: another Unicode form, another case', async () => {
    const nfc = 'Éric Rohmer';
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    const record = (id: string, factTitle: string) => ({ _id: id, question: `${id}?`, answer: 'x', type: 'bridge', context: [[nfc, ['He was a director.', ' He was born in Tulle.']]], supporting_facts: [[factTitle, 1]] });
    const file = await write('titles.json', array([record('a', nfd), record('b', 'éric rohmer')]));
    for (const setting of ['closed', 'open'] as const) {
      const ds = await loadDataset(file, { setting });
      expect(ds.questions.map((q) => q.supportingIds)).toEqual([[`${nfc}#${ds.passages[0]!.id.split('#')[1]}`], [ds.passages[0]!.id]]);
      expect(ds.questions.map((q) => q.supportingSentences)).toEqual([[{ passageId: ds.passages[0]!.id, sentence: 1 }], [{ passageId: ds.passages[0]!.id, sentence: 1 }]]);
    }
  });

  it('says a question set without gold answers (a test split) is not a dataset, and what answers a question without gold', async () => {
    const { _id, question, context, type } = hotpot('a', 'x');
    const test = await write('hotpot_test_fullwiki_v1.json', array([{ _id, question, context, type }]));
    const error = (await loadDataset(test).catch((e: unknown) => e)) as InputError;
    expect(error.message.split('\n')[0]).toBe(`${test}:2: field \`answer\`: missing: ${NO_GOLD}`);
    const list = await write('questions.jsonl', lines([{ id: 'q1', question: 'Who directed Moonfall Harbor?' }]));
    expect(((await loadDataset(list).catch((e: unknown) => e)) as InputError).message).toBe(`${list}:1: the records have a question but no answer field (fields [id, question]): ${NO_GOLD}`);
    expect(((await loadDataset(list, { layout: 'qa' }).catch((e: unknown) => e)) as InputError).message.split('\n')[0]).toContain(`field \`answer\`: required (answer, answers or golden_answers); ${NO_GOLD}`);
    // Gold under a name of its own is not a set without gold: the layout is asked for.
    const named = await write('named.jsonl', lines([{ id: 'q1', question: 'Who directed Moonfall Harbor?', ground_truth: 'Ilse Varga' }]));
    expect(((await loadDataset(named).catch((e: unknown) => e)) as InputError).message).toContain(`${named}:1: cannot detect the layout from fields [id, question, ground_truth]; pass \`layout\` (--layout)`);
  });
});
