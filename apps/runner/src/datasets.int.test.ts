import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '@multihop/core';
import { sharedDatasetsDir } from '@multihop/testing';
import { cli } from '../test/cli';
import { openCorpus } from './corpus';
import type { ResultRow } from './eval/ResultsLog';

// Issue 9: datasets a user brings, in their published layouts, each written here in a few lines.
const dir = mkdtempSync(join(tmpdir(), 'multihop-user-datasets-'));
const db = join(dir, 'db');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

const wiki = file('wiki.jsonl', jsonl([
  { id: 'w1', contents: '"Moonfall Harbor"\nMoonfall Harbor is a 1961 drama film directed by Ilse Varga.' },
  { id: 'w2', contents: '"Ilse Varga"\nIlse Varga was a film director. She was born in Debrecen, Hungary.' },
  { id: 'w3', contents: '"Copper Lantern"\nCopper Lantern is a novel by Tomas Reyes.' },
]));
const otherWiki = file('other-wiki.jsonl', jsonl([{ title: 'Debrecen', passage: 'Debrecen is the second largest city in Hungary.' }]));
const bamboogle = file('bamboogle.csv', 'Question,Answer\nWho directed Moonfall Harbor?,Ilse Varga\nWho wrote Copper Lantern?,Tomas Reyes\nWhere was Ilse Varga born?,Hungary\n');
const frames = file('frames.tsv', `Prompt\tAnswer\treasoning_types\twiki_links\nWhere was the director of Moonfall Harbor born?\tHungary\tMultiple constraints\t['https://en.wikipedia.org/wiki/Moonfall_Harbor', 'https://en.wikipedia.org/wiki/Ilse_Varga']\n`);
const VARGA = ['Ilse Varga was a film director.', ' She was born in Debrecen, Hungary.'];
const MOONFALL = ['Moonfall Harbor is a 1961 drama film directed by Ilse Varga.'];
// Hugging Face hotpot_qa, fullwiki form: question b's gold "Ilse Varga" is not among its own paragraphs.
const fullwiki = file('fullwiki.jsonl', jsonl([
  { id: 'a', question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', type: 'bridge', supporting_facts: { title: ['Moonfall Harbor', 'Ilse Varga'], sent_id: [0, 1] }, context: { title: ['Moonfall Harbor', 'Ilse Varga'], sentences: [MOONFALL, VARGA] } },
  { id: 'b', question: 'Where was the director of Moonfall Harbor born?', answer: 'Hungary', type: 'bridge', supporting_facts: { title: ['Moonfall Harbor', 'Ilse Varga'], sent_id: [0, 1] }, context: { title: ['Moonfall Harbor', 'Brittany'], sentences: [MOONFALL, ['Brittany is a peninsula.']] } },
]));

describe('datasets a user brings (issue 9)', () => {
  it('run --question --corpus FILE searches that corpus file alone', async () => {
    const { code, out, err } = await cli('run', '--workflow', 'single-turn-rag', '--question', 'Who directed Moonfall Harbor?', '--corpus', wiki, '--db', db, '--json');
    expect([code, err]).toEqual([0, '']);
    const result = JSON.parse(out) as RunResult;
    expect(result.evidenceIds.length).toBeGreaterThan(0);
    expect(result.evidenceIds.every((id) => ['w1', 'w2', 'w3'].includes(id))).toBe(true);
    const text = await cli('run', '--workflow', 'single-turn-rag', '--question', 'Who directed Moonfall Harbor?', '--corpus', wiki, '--db', db);
    expect(text.out).toMatch(/corpus: wiki-[0-9a-f]{8}-open/);
  });

  it('run --question --corpus says what a corpus record needs for passages without titles, and lists a directory\'s files', async () => {
    const untitled = file('untitled.jsonl', jsonl([{ id: 'u1', text: 'Moonfall Harbor is a 1961 drama film.' }]));
    const refused = await cli('run', '--workflow', 'single-turn-rag', '--question', 'Who directed Moonfall Harbor?', '--corpus', untitled, '--db', db);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`--corpus ${untitled}:1: its records have fields [id, text] and no title: a corpus record is {title, text}, {title, passage}, {id, contents}`);
    const folder = join(dir, 'corpus-dir');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'part-1.jsonl'), jsonl([{ title: 'A', text: 'B.' }]));
    const asDir = await cli('run', '--workflow', 'single-turn-rag', '--question', 'Who directed Moonfall Harbor?', '--corpus', folder, '--db', db);
    expect(asDir.code).toBe(2);
    expect(asDir.err).toContain(`${folder} is a directory, not a file; give one of its files: ${join(folder, 'part-1.jsonl')}`);
  });

  it('ingest --corpus FILE alone puts the corpus file in the store, as run --question --corpus searches it', async () => {
    const fresh = join(dir, 'db-ingest-corpus');
    const ingested = await cli('ingest', '--corpus', wiki, '--db', fresh);
    expect(ingested.code).toBe(0);
    expect(ingested.out).toMatch(/^corpus wiki-[0-9a-f]{8}-open: added 3 passage rows/);
    const ran = await cli('run', '--workflow', 'single-turn-rag', '--question', 'Who directed Moonfall Harbor?', '--corpus', wiki, '--db', fresh);
    expect(ran.code).toBe(0);
    // The table ingest made is the one the run searches: nothing is ingested again.
    expect(ran.err).not.toMatch(/ingested corpus/);
  });

  it('run --dataset X --id Q --corpus FILE adds the corpus file to the pool (FRAMES gold resolved in it)', async () => {
    const { code, out } = await cli('run', '--workflow', 'single-turn-rag', '--dataset', frames, '--id', '0', '--corpus', wiki, '--db', db, '--json');
    expect(code).toBe(0);
    expect((JSON.parse(out) as RunResult).evidenceIds).toEqual(expect.arrayContaining(['w2']));
    const opened = await openCorpus({ dataset: frames, setting: 'open', db, corpus: wiki });
    try {
      expect(opened.dataset.questions[0]).toMatchObject({ supportingIds: ['w1', 'w2'], type: 'Multiple constraints' });
      expect(opened.describe).toEqual({ setting: 'open', corpusSize: 3, corpus: expect.stringMatching(/^frames-[0-9a-f]{8}\.wiki-[0-9a-f]{8}-open$/), source: wiki });
    } finally {
      opened.close();
    }
  });

  it('gives two different corpus files two different corpora, and ingests each only once', async () => {
    const first = await cli('ingest', '--dataset', bamboogle, '--corpus', wiki, '--db', db);
    const other = await cli('ingest', '--dataset', bamboogle, '--corpus', otherWiki, '--db', db);
    const again = await cli('ingest', '--dataset', bamboogle, '--corpus', wiki, '--db', db);
    const name = (out: string) => /^corpus (\S+):/.exec(out)?.[1];
    expect(name(first.out)).toMatch(/^bamboogle-[0-9a-f]{8}\.wiki-[0-9a-f]{8}-open$/);
    expect(name(other.out)).toMatch(/^bamboogle-[0-9a-f]{8}\.other-wiki-[0-9a-f]{8}-open$/);
    expect(first.out).toContain('added 3 passage rows');
    expect(name(again.out)).toBe(name(first.out));
    expect(again.out).toContain('added 0 passage rows, 0 sentence rows');
  });

  it('runs a dataset without passages closed-book, with a warning, and describes it so', async () => {
    const { code, out, err } = await cli('run', '--workflow', 'single-turn-rag', '--dataset', bamboogle, '--id', '1', '--db', db);
    expect(code).toBe(0);
    expect(err).toMatch(/^warning: closed-book: bamboogle \(qa layout\) brings no passages and no corpus file was given/);
    expect(out).toContain('corpus: (none)');
    const ingest = await cli('ingest', '--dataset', bamboogle, '--db', db);
    expect(ingest.err).toMatch(/warning: closed-book/);
    expect(ingest.out).toContain('nothing to ingest, bamboogle is closed-book (3 questions, no passages)');
    const opened = await openCorpus({ dataset: bamboogle, setting: 'open', db });
    expect(opened.describe).toEqual({ setting: 'closed-book', corpusSize: 0, corpus: '(none)' });
    expect(await opened.retrieverFor({ id: '0', text: 'Who directed Moonfall Harbor?' }).search('Moonfall Harbor')).toEqual([]);
    opened.close();
  });

  it('takes two question files of one name (two dev.json) for two datasets: their own corpora, and an eval directory of one refuses the other', async () => {
    // Two slices of the real 2WikiMultiHopQA dev sample, each saved as dev.json in a folder of its own.
    const dev = JSON.parse(readFileSync(join(sharedDatasetsDir(), '2wikimultihopqa', 'dev-500.json'), 'utf8')) as unknown[];
    const saved = (folder: string, records: unknown[]) => {
      mkdirSync(join(dir, folder));
      return file(join(folder, 'dev.json'), JSON.stringify(records));
    };
    const [a, b] = [saved('dev-a', dev.slice(0, 2)), saved('dev-b', dev.slice(2, 4))];
    const out = join(dir, 'eval-dev');
    const first = await cli('eval', '--workflows', 'direct', '--dataset', a, '--db', db, '--out', out);
    expect(first.code).toBe(0);
    const other = await cli('eval', '--workflows', 'direct', '--dataset', b, '--db', db, '--out', out);
    expect(other.code).toBe(2);
    expect(other.err).toContain('this directory holds results for another question file called "dev"');
    const corpora = await Promise.all([a, b].map(async (dataset) => {
      const opened = await openCorpus({ dataset, setting: 'open', db });
      opened.close();
      return { name: opened.corpus, passages: opened.describe.corpusSize, own: opened.dataset.passages.length };
    }));
    expect(corpora[0]!.name).not.toBe(corpora[1]!.name);
    for (const c of corpora) expect(c.passages).toBe(c.own);
  });

  it('validates --layout with the list of layouts and what each needs', async () => {
    const { code, err } = await cli('ingest', '--dataset', bamboogle, '--layout', 'bamboogle', '--db', db);
    expect(code).toBe(2);
    expect(err).toContain('unknown layout "bamboogle"; the layouts and what each needs:');
    expect(err).toMatch(/\n {2}qa: questions without passages \(Bamboogle CSV/);
    // A named layout is used as named: this CSV read as FRAMES lacks Prompt.
    expect(await cli('ingest', '--dataset', bamboogle, '--layout', 'frames', '--db', db)).toMatchObject({ code: 2, err: expect.stringContaining('bamboogle.csv:2: field `Prompt`') });
  });

  it('eval says in summary.json and summary.md when gold is missing from the corpus, as retrieval metrics then count only the gold it holds', async () => {
    // Question b alone: its gold "Ilse Varga" is in no paragraph of the file (HotpotQA's fullwiki form).
    const missing = file('fullwiki-missing.jsonl', readFileSync(fullwiki, 'utf8').split('\n')[1]!);
    const out = join(dir, 'eval-missing-gold');
    const done = await cli('eval', '--workflows', 'single-turn-rag', '--dataset', missing, '--model', 'offline', '--db', db, '--out', out);
    expect(done.code).toBe(0);
    expect(done.err).toContain('warning: 1 gold title of 1 question match no passage of the corpus (e.g. b: "Ilse Varga")');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { corpus: { unresolved_gold?: unknown }; workflows: Record<string, { recall_at_5: number }> };
    expect(summary.corpus.unresolved_gold).toEqual({ questions: 1, titles: 1 });
    expect(summary.corpus).not.toHaveProperty('no_gold_passages');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('**Gold the corpus does not hold**: 1 gold title of 1 of these questions match no passage');
  });

  it("eval scores 2WikiMultiHopQA's answers against the id_aliases.json beside the file, as its official evaluation does, and does not mix them with answers scored without it", async () => {
    type TwoWiki = { _id: string; answer: string; answer_id: string | null };
    const records = (JSON.parse(readFileSync(join(sharedDatasetsDir(), '2wikimultihopqa', 'dev-500.json'), 'utf8')) as TwoWiki[]).slice(0, 8);
    const wiki = mkdtempSync(join(dir, '2wiki-'));
    const dev = join(wiki, 'dev.json');
    writeFileSync(dev, JSON.stringify(records));
    const args = (out: string) => ['eval', '--workflows', 'single-turn-rag', '--dataset', dev, '--setting', 'closed', '--db', db, '--out', out];
    const rowsOf = (out: string) => readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
    const plain = join(dir, 'eval-2wiki-plain');
    expect((await cli(...args(plain))).code).toBe(0);
    // A wrong answer to a question with an answer_id: listed as an alias of that answer, it scores.
    const wrong = rowsOf(plain).find((r) => r.metrics.em === 0 && r.prediction.trim() !== '' && records.find((x) => x._id === r.questionId)?.answer_id);
    expect(wrong).toBeDefined();
    const record = records.find((x) => x._id === wrong!.questionId)!;
    writeFileSync(join(wiki, 'id_aliases.json'), `${JSON.stringify({ Q_id: record.answer_id, aliases: [wrong!.prediction], demonyms: [] })}\n`);
    const aliased = join(dir, 'eval-2wiki-aliases');
    const done = await cli(...args(aliased));
    expect(done.code).toBe(0);
    expect(done.err).toContain(`answer aliases: ${join(wiki, 'id_aliases.json')} adds aliases and demonyms to the gold answers of 1 of 8 questions (by their answer_id)`);
    const again = rowsOf(aliased).find((r) => r.questionId === wrong!.questionId)!;
    expect(again).toMatchObject({ prediction: wrong!.prediction, gold: [record.answer, wrong!.prediction], metrics: { em: 1, f1: 1 } });
    const summary = JSON.parse(readFileSync(join(aliased, 'summary.json'), 'utf8')) as { answer_aliases?: unknown; workflows: Record<string, { em: number }> };
    expect(summary.answer_aliases).toEqual({ file: join(wiki, 'id_aliases.json'), sha1: expect.stringMatching(/^[0-9a-f]{40}$/), questions: 1 });
    const before = JSON.parse(readFileSync(join(plain, 'summary.json'), 'utf8')) as { workflows: Record<string, { em: number }> };
    expect(summary.workflows['single-turn-rag']!.em).toBeCloseTo(before.workflows['single-turn-rag']!.em + 1 / 8, 6);
    expect(readFileSync(join(aliased, 'summary.md'), 'utf8')).toContain('**Answer aliases**: the gold answers of 1 of these questions include the aliases and demonyms');
    // The directory whose answers were scored without the aliases is not resumed with them.
    const mixed = await cli(...args(plain));
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain(`this directory holds answers scored without answer aliases, and ${join(wiki, 'id_aliases.json')} now lies beside the dataset: move it away to resume this directory as it was scored, or use another --out`);
    // The other way: the directory scored with the aliases, resumed with the file gone.
    rmSync(join(wiki, 'id_aliases.json'));
    const gone = await cli(...args(aliased));
    expect(gone.code).toBe(2);
    expect(gone.err).toContain(`this directory holds answers scored against the answer aliases of ${join(wiki, 'id_aliases.json')} (sha1 `);
    expect(gone.err).toContain('which are not beside the dataset now: put that file back to resume it');
  });

  it('eval on a question set without gold, or on MuSiQue-Full with its unanswerable twins, says what it did with them', async () => {
    const noGold = file('questions.jsonl', jsonl([{ id: 'q1', question: 'Who directed Moonfall Harbor?' }]));
    const refused = await cli('eval', '--workflows', 'direct', '--dataset', noGold, '--model', 'offline', '--db', db, '--out', join(dir, 'eval-no-gold'));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${noGold}:1: the records have a question but no answer field (fields [id, question]): a question set without gold answers (a test split?) cannot be scored`);
    expect(refused.err).toContain('`multihop predict --workflows ... --dataset FILE --corpus CORPUS` answers every question without scoring, and `run --dataset FILE --id ID` one of them');
    // MuSiQue-Full: each question twice under one id, the second unanswerable (its supporting paragraph replaced).
    const paragraph = (title: string, text: string, supporting: boolean) => ({ idx: 0, title, paragraph_text: text, is_supporting: supporting });
    const full = file('musique_full.jsonl', jsonl([
      { id: '2hop__m1', question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', answer_aliases: [], answerable: true, paragraphs: [paragraph('Moonfall Harbor', MOONFALL[0]!, true)] },
      { id: '2hop__m1', question: 'Who directed Moonfall Harbor?', answer: 'Ilse Varga', answer_aliases: [], answerable: false, paragraphs: [paragraph('Brittany', 'Brittany is a peninsula.', false)] },
    ]));
    const out = join(dir, 'eval-musique-full');
    const done = await cli('eval', '--workflows', 'direct', '--dataset', full, '--model', 'offline', '--db', db, '--out', out);
    expect(done.code).toBe(0);
    expect(done.err).toContain(`warning: ${full}: left out 1 unanswerable question (\`answerable: false\`: line 2), as MuSiQue's evaluator scores answers only on answerable ones; 1 answerable question loaded`);
    expect((JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { n: number }).n).toBe(1);
  });

  it('keeps fullwiki questions in the open setting, and offers --skip-invalid in the closed one', async () => {
    const open = await openCorpus({ dataset: fullwiki, setting: 'open', db });
    expect(open.dataset.questions.map((q) => q.supportingIds.length)).toEqual([2, 2]);
    expect(open.notices).toEqual([]);
    open.close();
    const refused = await cli('ingest', '--dataset', fullwiki, '--setting', 'closed', '--db', db);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${fullwiki}:2: field \`supporting_facts.title[1]\``);
    expect(refused.err).toContain('--skip-invalid');
    const skipped = await cli('ingest', '--dataset', fullwiki, '--setting', 'closed', '--skip-invalid', '--db', db);
    expect(skipped.code).toBe(0);
    expect(skipped.err).toMatch(/warning: --skip-invalid left out 1 invalid record of .*fullwiki\.jsonl:\n {2}.*fullwiki\.jsonl:2: field/);
    expect(skipped.out).toMatch(/^corpus fullwiki-[0-9a-f]{8}-closed: added 2 passage rows/);
  });

  it('refuses --corpus in the closed setting, where only each question\'s own paragraphs are searched', async () => {
    await expect(openCorpus({ dataset: fullwiki, setting: 'closed', db, corpus: wiki })).rejects.toThrow(/joins the open pool.*use --setting open, or drop --corpus/);
  });

  it('eval --corpus FILE searches the corpus file (and without it the same questions are closed-book)', async () => {
    const withCorpus = join(dir, 'eval-with');
    const done = await cli('eval', '--workflows', 'single-turn-rag', '--dataset', bamboogle, '--corpus', wiki, '--limit', '2', '--model', 'offline', '--db', db, '--out', withCorpus);
    expect(done.code).toBe(0);
    const rows = readFileSync(join(withCorpus, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.evidenceIds.length).toBeGreaterThan(0);
      expect(row.evidenceIds.every((id) => ['w1', 'w2', 'w3'].includes(id))).toBe(true);
    }
    // Bamboogle names no gold passage: the summary says why the retrieval columns read —.
    expect((JSON.parse(readFileSync(join(withCorpus, 'summary.json'), 'utf8')) as { corpus: { no_gold_passages?: boolean } }).corpus.no_gold_passages).toBe(true);
    expect(readFileSync(join(withCorpus, 'summary.md'), 'utf8')).toContain('**No gold passages**: none of these questions names a gold passage');
    const without = join(dir, 'eval-without');
    const closedBook = await cli('eval', '--workflows', 'single-turn-rag', '--dataset', bamboogle, '--limit', '2', '--model', 'offline', '--db', db, '--out', without);
    expect(closedBook.code).toBe(0);
    const bare = readFileSync(join(without, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);
    expect(bare.map((r) => r.evidenceIds)).toEqual([[], []]);
  });
});
