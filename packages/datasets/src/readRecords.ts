import { readFile } from 'node:fs/promises';
import { InputError } from '@multihop/core';
import { parseTable, tableFormat, type TableFormat } from './parseTable';

/** One top-level record of a data file and the 1-based line it starts on. */
export interface SourceRecord {
  value: unknown;
  line: number;
  /** Set for records of a top-level JSON object (`{title: [sentences]}` corpora): the key. */
  key?: string;
  /** Set for rows of a CSV / TSV file, whose `value` maps header names to cell strings. */
  table?: TableFormat;
}

/**
 * Reads JSONL, a JSON array or a JSON object, by content rather than by extension: the shared
 * MuSiQue train file is a JSON array named `.json`, its dev file real JSONL, and files in the wild
 * mix both. Every record keeps its line so errors can point at it.
 */
export async function readRecords(file: string): Promise<SourceRecord[]> {
  return parseRecords(await readText(file), file);
}

/** A file's text, or an InputError naming it. */
export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read ${file}: ${(cause as Error).message}`, { file }, { cause });
  }
}

export function parseRecords(text: string, file: string): SourceRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /\S/.exec(body);
  if (!first) throw new InputError(`${file} is empty`, { file, line: 1 });
  // A `.jsonl` file is JSONL even when it holds one record (which would also parse as one document).
  if ((first[0] === '[' || first[0] === '{') && !/\.jsonl$/i.test(file)) {
    const whole = tryParseWhole(body);
    if (whole.ok) return splitTopLevel(body, whole.value, file);
    // A `{` start that does not parse as one document is JSONL (one object per line).
    if (first[0] === '[') throw jsonError(body, whole.error, file, 0);
  }
  // Not JSON: a CSV / TSV question table with a header (Bamboogle's CSV, FRAMES's TSV).
  const table = first[0] === '[' || first[0] === '{' ? undefined : tableFormat(body, file);
  if (table) return parseTable(body, file, table).map((row) => ({ value: row.cells, line: row.line, table }));
  return parseJsonl(body, file);
}

function tryParseWhole(text: string): { ok: true; value: unknown } | { ok: false; error: Error } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

function parseJsonl(text: string, file: string): SourceRecord[] {
  const records: SourceRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (!raw.trim()) continue;
    try {
      records.push({ value: JSON.parse(raw), line: i + 1 });
    } catch (error) {
      throw new InputError(`${file}:${i + 1}: not valid JSON (${(error as Error).message})`, { file, line: i + 1 }, { cause: error });
    }
  }
  return records;
}

function jsonError(text: string, error: Error, file: string, baseLine: number): InputError {
  const position = /position (\d+)/.exec(error.message)?.[1];
  // Node 20's messages often carry no position: find the first top-level element that fails alone.
  const line = position === undefined ? failingElementLine(text) : baseLine + lineAt(text, Number(position));
  return new InputError(`${file}${line ? `:${line}` : ''}: not valid JSON (${error.message})`, { file, line }, { cause: error });
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function failingElementLine(text: string): number | undefined {
  const starts = topLevelStarts(text);
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] ?? 0;
    const slice = text.slice(start, starts[i + 1] ?? text.length).replace(/[\s,\]]*$/, '');
    try {
      JSON.parse(slice);
    } catch {
      return lineAt(text, start);
    }
  }
  return undefined;
}

/** Finds where each top-level element (array) or member (object) starts, to give records their lines. */
function splitTopLevel(text: string, value: unknown, file: string): SourceRecord[] {
  const lines = lineNumbers(text, topLevelStarts(text));
  if (Array.isArray(value)) return value.map((v, i) => ({ value: v, line: lines[i] ?? 1 }));
  if (value && typeof value === 'object') {
    // One object whose members are not all lists is a single record, not a `{title: [sentences]}` corpus.
    if (!Object.values(value).every(Array.isArray)) return [{ value, line: lineAt(text, text.indexOf('{')) }];
    return Object.entries(value).map(([key, v], i) => ({ value: v, key, line: lines[i] ?? 1 }));
  }
  throw new InputError(`${file}: expected a JSON array, object or JSONL`, { file, line: 1 });
}

function topLevelStarts(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      if (depth === 1 && expectValue) starts.push(i), (expectValue = false);
      inString = true;
    } else if (c === '[' || c === '{') {
      if (depth === 1 && expectValue) starts.push(i), (expectValue = false);
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
    else if (depth === 1 && expectValue && c !== undefined && !/\s|:/.test(c)) starts.push(i), (expectValue = false);
    else if (c === ':' && depth === 1) expectValue = false;
  }
  return starts;
}

function lineNumbers(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const offset of offsets) {
    for (; pos < offset; pos++) if (text.charCodeAt(pos) === 10) line++;
    out.push(line);
  }
  return out;
}
