import { InputError } from '@multihop/core';
import { parseRecords } from './readRecords';

describe('CSV and TSV question tables', () => {
  it('reads a CSV header and rows, with quoted commas, doubled quotes and a line break inside quotes', () => {
    const text = 'Question,Answer\n"Who wrote ""Dune"", the novel?",Frank Herbert\r\n"A question\nover two lines?","Paris, France"\n';
    const records = parseRecords(text, 'bamboogle.csv');
    expect(records).toEqual([
      { value: { Question: 'Who wrote "Dune", the novel?', Answer: 'Frank Herbert' }, line: 2, table: 'csv' },
      { value: { Question: 'A question\nover two lines?', Answer: 'Paris, France' }, line: 3, table: 'csv' },
    ]);
  });

  it('keeps a line break inside a quoted cell as \\n in a file with Windows line ends, and counts its lines', () => {
    const records = parseRecords('Question,Answer\r\n"A question\r\nover two lines?",Paris\r\nq2,Rome\r\n', 'windows.csv');
    expect(records).toEqual([
      { value: { Question: 'A question\nover two lines?', Answer: 'Paris' }, line: 2, table: 'csv' },
      { value: { Question: 'q2', Answer: 'Rome' }, line: 4, table: 'csv' },
    ]);
  });

  it('tells TSV from CSV by a tab in the header when the name does not say', () => {
    const records = parseRecords('\tPrompt\tAnswer\n0\tWhich city, of all?\tRome\n', 'frames-download');
    expect(records).toEqual([{ value: { index: '0', Prompt: 'Which city, of all?', Answer: 'Rome' }, line: 2, table: 'tsv' }]);
  });

  it('names the line of a row with more cells than the header, and of a quote never closed', () => {
    expect(() => parseRecords('question,answer\nq1,a1\nq2,a,b\n', 'x.csv')).toThrow(expect.objectContaining({ location: { file: 'x.csv', line: 3 } }));
    expect(() => parseRecords('question,answer\nq1,"a1\n', 'x.csv')).toThrow(InputError);
    expect(() => parseRecords('question,answer\nq1,"a1\n', 'x.csv')).toThrow(/x\.csv:2: a quoted cell is never closed/);
  });

  it('refuses a header that names a column twice, which would drop one of its cells from every row', () => {
    expect(() => parseRecords('Question,Answer,answer\nWho wrote Hamlet?,Shakespeare,Will\n', 'dup.csv')).toThrow(
      'dup.csv:1: the header names column "answer" twice (columns 2 and 3); give each column a name of its own (aliases go in one answer cell as "a | b")',
    );
  });

  it('keeps a row with more cells than the header as an invalid record when broken lines are kept, so --skip-invalid skips it', async () => {
    const records = parseRecords('question,answer\nq1,a1\nq2,a,b\nq3,a3\n', 'x.csv', { keepBrokenLines: true });
    expect(records.map((r) => [r.line, r.broken?.message ?? r.value])).toEqual([
      [2, { question: 'q1', answer: 'a1' }],
      [3, 'x.csv:3: 3 cells for 2 header columns (CSV with an unquoted comma?)'],
      [4, { question: 'q3', answer: 'a3' }],
    ]);
    const { mkdtempSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
    const file = require('node:path').join(mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'multihop-table-')), 'extra.csv') as string;
    writeFileSync(file, 'question,answer\nq1,a1\nq2,a,b\nq3,a3\n');
    const { loadDataset } = require('./loadDataset') as typeof import('./loadDataset');
    const ds = await loadDataset(file, { skipInvalid: true });
    expect(ds.questions.map((q) => q.answer)).toEqual(['a1', 'a3']);
    expect(ds.skipped.map((s) => s.line)).toEqual([3]);
  });

  it('still reads a .jsonl file that is not JSON as JSONL, with the JSON error', () => {
    expect(() => parseRecords('question,answer\n', 'x.jsonl')).toThrow(/x\.jsonl:1: not valid JSON/);
  });
});
