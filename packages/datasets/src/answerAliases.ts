import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InputError } from '@multihop/core';
import { decodeUtf8, describeReadError } from './readRecords';

/** The file 2WikiMultiHopQA's release ships beside train.json, dev.json and test.json. */
export const ID_ALIASES_FILE = 'id_aliases.json';

/** An answer-alias file as loaded: Wikidata id → the names its answer is also accepted under. */
export interface AnswerAliases {
  /** Absolute path. */
  path: string;
  /** sha1 of the file's bytes: an eval records it, so its rows are not mixed with rows scored against other aliases. */
  sha1: string;
  byId: Map<string, string[]>;
}

/**
 * Reads 2WikiMultiHopQA's `id_aliases.json`: one JSON object a line, `{"Q_id": "Q…", "aliases":
 * [...], "demonyms": [...]}`. As 2Wiki's official evaluation does, a question whose `answer_id`
 * has an entry is scored against its answer, the entry's aliases and its demonyms. A line that is
 * not such an object is an error naming the file, the line and the field.
 */
export function readAnswerAliases(path: string): AnswerAliases {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new InputError(`answer aliases ${describeReadError(path, cause as NodeJS.ErrnoException)}`, { file: path, field: 'answerAliases' }, { cause });
  }
  // Not UTF-8 is an error naming the line, never U+FFFD in the gold aliases.
  const text = decodeUtf8(bytes, path);
  const byId = new Map<string, string[]>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const at = (field: string | undefined, message: string) => new InputError(`${path}:${i + 1}: ${field ? `field \`${field}\`: ` : ''}${message}`, { file: path, line: i + 1, ...(field ? { field } : {}) });
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw at(undefined, `not JSON (${(error as Error).message}); an id-aliases file has one {"Q_id", "aliases", "demonyms"} object a line, as 2WikiMultiHopQA's id_aliases.json`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw at(undefined, 'not an object; expected {"Q_id", "aliases", "demonyms"}');
    const entry = value as Record<string, unknown>;
    if (typeof entry['Q_id'] !== 'string' || !entry['Q_id']) throw at('Q_id', 'missing or not a string');
    const names = (field: 'aliases' | 'demonyms'): string[] => {
      const list = entry[field] ?? [];
      if (!Array.isArray(list) || list.some((a) => typeof a !== 'string')) throw at(field, 'not a list of strings');
      return list as string[];
    };
    const all = [...names('aliases'), ...names('demonyms')].filter((a) => a.trim() !== '');
    byId.set(entry['Q_id'], [...new Set([...(byId.get(entry['Q_id']) ?? []), ...all])]);
  });
  return { path, sha1: createHash('sha1').update(bytes).digest('hex'), byId };
}
