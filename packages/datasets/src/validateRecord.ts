import { InputError } from '@multihop/core';
import type { ZodType } from 'zod';
import type { SourceRecord } from './readRecords';

/** Parses one record with a layout's schema; a failure names the file, the record's line and the field path. */
export function validateRecord<T>(schema: ZodType<T>, record: SourceRecord, file: string): T {
  const result = schema.safeParse(record.value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? formatPath(issue.path) : undefined;
  const what = issue?.message ?? 'invalid record';
  throw new InputError(`${file}:${record.line}: ${field ? `field \`${field}\`: ` : ''}${what}`, { file, line: record.line, field });
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out;
}

/** For checks a schema cannot express (a supporting title missing from the context). */
export function recordError(record: SourceRecord, file: string, field: string, message: string): InputError {
  return new InputError(`${file}:${record.line}: field \`${field}\`: ${message}`, { file, line: record.line, field });
}
