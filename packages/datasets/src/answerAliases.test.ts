import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';
import { ID_ALIASES_FILE } from './answerAliases';
import { loadDataset } from './loadDataset';

// 2WikiMultiHopQA's release ships id_aliases.json beside dev.json; the shared sample does not, so
// each test writes one in the official form (one {"Q_id", "aliases", "demonyms"} a line) beside a
// copy of the first records of the shared dev file.
type TwoWiki = { _id: string; answer: string; answer_id: string | null };
const records = (JSON.parse(readFileSync(join(sharedDatasetsDir(), '2wikimultihopqa', 'dev-500.json'), 'utf8')) as TwoWiki[]).slice(0, 6);
// A yes/no answer has no answer_id (null): the second record's.
const keyed = records.filter((r) => r.answer_id !== null);

describe("2WikiMultiHopQA's answer aliases (id_aliases.json)", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'multihop-aliases-'));
    file = join(dir, 'dev.json');
    writeFileSync(file, JSON.stringify(records));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const aliasesFile = (lines: unknown[], name = ID_ALIASES_FILE) => {
    const path = join(dir, name);
    writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    return path;
  };

  it('reads the id_aliases.json beside the file: each question whose answer_id it lists gains its aliases and demonyms', async () => {
    const [first, second] = keyed;
    aliasesFile([
      { Q_id: first!.answer_id, aliases: ['Alias One', first!.answer], demonyms: ['Demonym One'] },
      { Q_id: second!.answer_id, aliases: [], demonyms: [] },
      { Q_id: 'Q-not-an-answer-here', aliases: ['Unused'], demonyms: [] },
    ]);
    const dataset = await loadDataset(file);
    const byId = new Map(dataset.questions.map((q) => [q.id, q]));
    // The answer itself is not repeated as an alias; an entry with no names adds nothing.
    expect(byId.get(first!._id)).toMatchObject({ answer: first!.answer, aliases: ['Alias One', 'Demonym One'] });
    expect(byId.get(second!._id)!.aliases).toEqual([]);
    expect(dataset.answerAliases).toEqual({ path: join(dir, ID_ALIASES_FILE), sha1: expect.stringMatching(/^[0-9a-f]{40}$/), questionIds: [first!._id] });
    // Asked not to: no aliases; without the file: none either.
    const without = await loadDataset(file, { answerAliases: false });
    expect(without.answerAliases).toBeUndefined();
    expect(without.questions.every((q) => q.aliases.length === 0)).toBe(true);
  });

  it('takes a file named elsewhere, and refuses one that is missing, malformed, or given for questions without answer_id', async () => {
    const [first] = keyed;
    const elsewhere = aliasesFile([{ Q_id: first!.answer_id, aliases: ['Alias Two'], demonyms: [] }], 'aliases-elsewhere.jsonl');
    expect((await loadDataset(file, { answerAliases: elsewhere })).questions[0]!.aliases).toEqual(['Alias Two']);
    await expect(loadDataset(file, { answerAliases: join(dir, 'none.json') })).rejects.toThrow(`answer aliases ${join(dir, 'none.json')}: no such file`);
    const bad = aliasesFile([{ Q_id: first!.answer_id, aliases: ['ok'], demonyms: [] }, '{"Q_id": "Q1", "aliases": "not a list"}'], 'bad.jsonl');
    await expect(loadDataset(file, { answerAliases: bad })).rejects.toThrow(`${bad}:2: field \`aliases\`: not a list of strings`);
    const torn = aliasesFile(['{"Q_id": "Q1", "alias'], 'torn.jsonl');
    await expect(loadDataset(file, { answerAliases: torn })).rejects.toThrow(new RegExp(`${torn}:1: not JSON .*one \\{"Q_id", "aliases", "demonyms"\\} object a line`));
    const hotpot = join(sharedDatasetsDir(), 'hotpotqa', 'train-100.json');
    await expect(loadDataset(hotpot, { answerAliases: elsewhere, limit: 2 })).rejects.toThrow(/carry no `answer_id` \(2WikiMultiHopQA's field\)/);
  });

  it('refuses an aliases file that is not UTF-8, naming its line, and a directory of that name, naming it', async () => {
    const [first] = keyed;
    const latin1 = join(dir, ID_ALIASES_FILE);
    writeFileSync(latin1, Buffer.concat([Buffer.from(`${JSON.stringify({ Q_id: 'Q1', aliases: ['a'], demonyms: [] })}\n{"Q_id": "${first!.answer_id}", "aliases": ["Cahiers du cin`), Buffer.from([0xe9]), Buffer.from('ma"], "demonyms": []}\n')]));
    await expect(loadDataset(file)).rejects.toThrow(`${latin1}:2: not UTF-8 text (byte 0xE9`);
    rmSync(latin1);
    const asDir = join(dir, 'aliases-dir');
    require('node:fs').mkdirSync(asDir);
    await expect(loadDataset(file, { answerAliases: asDir })).rejects.toThrow(`answer aliases ${asDir} is a directory, not a file`);
  });
});
