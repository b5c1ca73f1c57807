import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  /** Set for a JSONL line that is not JSON, read with `keepBrokenLines`: why (`value` is undefined). */
  broken?: InputError;
  /**
   * Set when other records start on the same line (HotpotQA's and 2Wiki's files are one line of
   * JSON): the record's 1-based position in the file, which errors name beside the line.
   */
  position?: number;
}

export interface ReadRecordsOptions {
  /**
   * A JSONL line that is not JSON becomes a record with `broken` set instead of failing the read,
   * so a loader can count it with the other invalid records (and skip it, asked to). A JSON
   * document that does not parse still fails: nothing of it can be read.
   */
  keepBrokenLines?: boolean;
}

/**
 * Reads JSONL, a JSON array or a JSON object, by content rather than by extension: the shared
 * MuSiQue train file is a JSON array named `.json`, its dev file real JSONL, and files in the wild
 * mix both. Every record keeps its line so errors can point at it.
 */
export async function readRecords(file: string, options: ReadRecordsOptions = {}): Promise<SourceRecord[]> {
  return parseRecords(await readText(file), file, options);
}

/**
 * A file's text, decoded as UTF-8, or an InputError naming it: a missing file, a directory, a file
 * it may not read, and bytes that are not UTF-8 (with the line and column of the first) each say so
 * in words, rather than with the system's error code or with U+FFFD in the data.
 */
export async function readText(file: string, what?: { name: string; field: string }): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    // A file the caller names (`corpus file …`) says which of the user's files it is.
    const message = describeReadError(file, cause as NodeJS.ErrnoException);
    throw new InputError(what ? `${what.name} ${message}` : message, { file, ...(what ? { field: what.field } : {}) }, { cause });
  }
  return decodeUtf8(bytes, file);
}

/** A read error in words: a missing file, a directory (with the data files in it), no permission. */
export function describeReadError(file: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `${file} does not exist`;
    case 'EISDIR': {
      let entries: string[] = [];
      try {
        entries = readdirSync(file).filter((f) => /\.(jsonl|json|csv|tsv)$/i.test(f)).sort();
      } catch {
        // Unreadable: the message says what it can.
      }
      const shown = entries.slice(0, 5).map((f) => join(file, f));
      return `${file} is a directory, not a file${shown.length ? `; give one of its files: ${shown.join(', ')}${entries.length > shown.length ? ', …' : ''}` : ''}`;
    }
    case 'EACCES':
    case 'EPERM':
      return `${file} cannot be read: permission denied`;
    default:
      return `cannot read ${file}: ${error.message}`;
  }
}

/**
 * UTF-8 text of `bytes`; the first byte that is not UTF-8 is an InputError with its line and column.
 * A file that starts with a UTF-16 byte-order mark (what spreadsheet programs save as "Unicode
 * text") is read as UTF-16.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (utf16) {
    try {
      return new TextDecoder(utf16, { fatal: true }).decode(bytes);
    } catch {
      throw new InputError(`${file}: starts with a UTF-16 byte-order mark but is not valid UTF-16 text; save the file as UTF-8`, { file });
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    const hex = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    throw new InputError(
      `${file}:${line}: not UTF-8 text (byte 0x${hex} at byte ${offset - lineStart + 1} of the line); save the file as UTF-8 (from Latin-1, for instance: iconv -f latin1 -t utf-8)`,
      { file, line },
    );
  }
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence (bytes.length if none). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined || b < (k === 1 ? lo : 0x80) || b > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return n;
}

export function parseRecords(text: string, file: string, options: ReadRecordsOptions = {}): SourceRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /\S/.exec(body);
  if (!first) throw new InputError(`${file} is empty`, { file, line: 1 });
  // The first line with text, where a JSONL file's first record is.
  const lineEnd = body.indexOf('\n', first.index);
  const firstLine = body.slice(first.index, lineEnd < 0 ? undefined : lineEnd).trim();
  // A `.jsonl` file is JSONL even when it holds one record (which would also parse as one document);
  // one that is a JSON array (a .json file renamed, an export) is named as what it is.
  if (first[0] === '[' && /\.jsonl$/i.test(file) && (firstLine === '[' || tryParseWhole(body).ok)) {
    throw new InputError(`${file} holds one JSON array, not JSON Lines (one record a line): name it .json, or write one record a line`, { file, line: lineAt(body, first.index) });
  }
  if ((first[0] === '[' || first[0] === '{') && !/\.jsonl$/i.test(file)) {
    const whole = tryParseWhole(body);
    if (whole.ok) return splitTopLevel(body, whole.value, file);
    // A `{` start that does not parse as one document is JSONL (one object per line), unless its first
    // line is no JSON either: then it is one indented document (HippoRAG's {title: [sentences]} corpus)
    // broken further down, named at the line the parser stopped, not at its opening brace.
    if (first[0] === '[' || !tryParseWhole(firstLine).ok) throw jsonError(body, whole.error, file, 0);
  }
  // Not JSON: a CSV / TSV question table with a header (Bamboogle's CSV, FRAMES's TSV).
  const table = first[0] === '[' || first[0] === '{' ? undefined : tableFormat(body, file);
  if (table) {
    // A row that is not the header's columns is one more invalid record, as a broken JSONL line is.
    return parseTable(body, file, table).map((row) => {
      if (row.broken && !options.keepBrokenLines) throw row.broken;
      return { value: row.broken ? undefined : row.cells, line: row.line, table, ...(row.broken ? { broken: row.broken } : {}) };
    });
  }
  return parseJsonl(body, file, options.keepBrokenLines ?? false);
}

function tryParseWhole(text: string): { ok: true; value: unknown } | { ok: false; error: Error } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

function parseJsonl(text: string, file: string, keepBroken: boolean): SourceRecord[] {
  const records: SourceRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (!raw.trim()) continue;
    try {
      records.push({ value: JSON.parse(raw), line: i + 1 });
    } catch (error) {
      const broken = new InputError(`${file}:${i + 1}: not valid JSON (${(error as Error).message})`, { file, line: i + 1 }, { cause: error });
      if (!keepBroken) throw broken;
      records.push({ value: undefined, line: i + 1, broken });
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
  // An object's members start at their keys: each is tried as an object of its own.
  const object = /^\s*\{/.test(text);
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] ?? 0;
    const slice = text.slice(start, starts[i + 1] ?? text.length).replace(object ? /[\s,}]*$/ : /[\s,\]]*$/, '');
    try {
      JSON.parse(object ? `{${slice}}` : slice);
    } catch {
      return lineAt(text, start);
    }
  }
  return undefined;
}

/** Finds where each top-level element (array) or member (object) starts, to give records their lines. */
function splitTopLevel(text: string, value: unknown, file: string): SourceRecord[] {
  const lines = lineNumbers(text, topLevelStarts(text));
  if (Array.isArray(value)) {
    const records: SourceRecord[] = value.map((v, i) => ({ value: v, line: lines[i] ?? 1 }));
    const perLine = new Map<number, number>();
    for (const r of records) perLine.set(r.line, (perLine.get(r.line) ?? 0) + 1);
    records.forEach((r, i) => {
      if ((perLine.get(r.line) ?? 0) > 1) r.position = i + 1;
    });
    return records;
  }
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
