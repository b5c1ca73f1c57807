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

  it('tells TSV from CSV by a tab in the header when the name does not say', () => {
    const records = parseRecords('\tPrompt\tAnswer\n0\tWhich city, of all?\tRome\n', 'frames-download');
    expect(records).toEqual([{ value: { index: '0', Prompt: 'Which city, of all?', Answer: 'Rome' }, line: 2, table: 'tsv' }]);
  });

  it('names the line of a row with more cells than the header, and of a quote never closed', () => {
    expect(() => parseRecords('question,answer\nq1,a1\nq2,a,b\n', 'x.csv')).toThrow(expect.objectContaining({ location: { file: 'x.csv', line: 3 } }));
    expect(() => parseRecords('question,answer\nq1,"a1\n', 'x.csv')).toThrow(InputError);
    expect(() => parseRecords('question,answer\nq1,"a1\n', 'x.csv')).toThrow(/x\.csv:2: a quoted cell is never closed/);
  });

  it('still reads a .jsonl file that is not JSON as JSONL, with the JSON error', () => {
    expect(() => parseRecords('question,answer\n', 'x.jsonl')).toThrow(/x\.jsonl:1: not valid JSON/);
  });
});
