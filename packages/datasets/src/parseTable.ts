import { InputError } from '@multihop/core';

export type TableFormat = 'csv' | 'tsv';

/** One data row of a delimited file: its cells by header name, and the line the row starts on. */
export interface TableRow {
  cells: Record<string, string>;
  line: number;
  /** A row that cannot be read as the header's columns (more cells than columns): an invalid record. */
  broken?: InputError;
}

/**
 * Tells whether a text that is not JSON is a table with a header: a `.csv` / `.tsv` name, or (not
 * named `.json` / `.jsonl`) a first line with at least two tab- or comma-separated columns (tabs win: TSV cells often hold commas).
 */
export function tableFormat(text: string, file: string): TableFormat | undefined {
  if (/\.tsv$/i.test(file)) return 'tsv';
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.jsonl?$/i.test(file)) return undefined;
  const header = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  if (header.includes('\t')) return 'tsv';
  if (header.includes(',')) return 'csv';
  return undefined;
}

/**
 * Parses CSV or TSV with a header row, RFC 4180 quoting (`"a, b"`, `""` for a quote, line breaks
 * inside quotes), as pandas and spreadsheets write them. Rows that are entirely empty are skipped;
 * a row with more cells than the header comes back `broken` (an error naming its line), and a
 * header that names a column twice is refused.
 */
export function parseTable(text: string, file: string, format: TableFormat): TableRow[] {
  const delimiter = format === 'tsv' ? '\t' : ',';
  const rows = splitRows(text, delimiter, file);
  const header = rows.shift();
  if (!header) throw new InputError(`${file} is empty`, { file, line: 1 });
  // pandas writes its index as a first column with an empty name.
  const names = header.cells.map((name, i) => name.trim() || (i === 0 ? 'index' : `column${i + 1}`));
  // A column named twice would lose one of the two cells of every row (the later wins) without a word.
  const twice = names.findIndex((name, i) => names.findIndex((n) => n.toLowerCase() === name.toLowerCase()) < i);
  if (twice >= 0) {
    const first = names.findIndex((n) => n.toLowerCase() === names[twice]!.toLowerCase());
    throw new InputError(`${file}:${header.line}: the header names column "${names[twice]}" twice (columns ${first + 1} and ${twice + 1}); give each column a name of its own (aliases go in one answer cell as "a | b")`, { file, line: header.line, field: names[twice] });
  }
  const out: TableRow[] = [];
  for (const row of rows) {
    if (row.cells.every((c) => c.trim() === '')) continue;
    if (row.cells.length > names.length) {
      const broken = new InputError(`${file}:${row.line}: ${row.cells.length} cells for ${names.length} header columns (${format.toUpperCase()} with an unquoted ${format === 'tsv' ? 'tab' : 'comma'}?)`, { file, line: row.line });
      out.push({ cells: {}, line: row.line, broken });
      continue;
    }
    const cells: Record<string, string> = {};
    names.forEach((name, i) => (cells[name] = row.cells[i] ?? ''));
    out.push({ cells, line: row.line });
  }
  return out;
}

function splitRows(text: string, delimiter: string, file: string): Array<{ cells: string[]; line: number }> {
  const rows: Array<{ cells: string[]; line: number }> = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let quoteLine = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else if (c === '\r' && text[i + 1] === '\n') {
        // A line break inside a quoted cell is kept as \n, whatever line ends the file uses.
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      rows.push({ cells, line: rowLine });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += c;
  }
  if (quoted) throw new InputError(`${file}:${quoteLine}: a quoted cell is never closed`, { file, line: quoteLine });
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ cells, line: rowLine });
  }
  return rows;
}
