import { InputError } from '@multihop/core';
import type { ZodType } from 'zod';
import type { SourceRecord } from './readRecords';

/** Parses one record with a layout's schema; a failure names the file, the record's line and the field path. */
export function validateRecord<T>(schema: ZodType<T>, record: SourceRecord, file: string): T {
  const result = schema.safeParse(record.value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? formatPath(issue.path) : undefined;
  // A field that is not there at all is missing, whatever the schema's message (a union's is a bare "Invalid input").
  const absent = issue !== undefined && issue.path.length > 0 && valueAt(record.value, issue.path) === undefined;
  const what = absent ? 'missing (required)' : (issue?.message ?? 'invalid record');
  throw new InputError(`${where(record, file)}: ${field ? `field \`${field}\`: ` : ''}${what}`, { file, line: record.line, field });
}

/**
 * `file:line`, and where other records share the line (a one-line JSON file), the record's
 * position and id: `dev.json:1 (record 4, id "d347b650…")`.
 */
export function where(record: SourceRecord, file: string): string {
  if (record.position === undefined) return `${file}:${record.line}`;
  const value = record.value as { _id?: unknown; id?: unknown } | undefined;
  const id = value && typeof value === 'object' ? (value._id ?? value.id) : undefined;
  return `${file}:${record.line} (record ${record.position}${typeof id === 'string' || typeof id === 'number' ? `, id "${id}"` : ''})`;
}

function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out;
}

/** For checks a schema cannot express (a supporting title missing from the context). */
export function recordError(record: SourceRecord, file: string, field: string, message: string): InputError {
  return new InputError(`${where(record, file)}: field \`${field}\`: ${message}`, { file, line: record.line, field });
}

/**
 * What a question set without gold answers is told when it is loaded to be scored (a test split:
 * HotpotQA's test file, a list of questions): eval scores against gold; `multihop predict` and
 * `run --dataset FILE --id ID` load such a file (`gold: 'optional'`) and answer without scoring.
 */
export const NO_GOLD =
  'a question set without gold answers (a test split?) cannot be scored: eval scores against the gold; `multihop predict --workflows ... --dataset FILE --corpus CORPUS` answers every question without scoring, and `run --dataset FILE --id ID` one of them';
