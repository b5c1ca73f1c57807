import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@multihop/core';
import { looksLikeCorpus } from './detectLayout';
import { describeReadError, parseRecords, readRecords } from './readRecords';

const PEEK = 1 << 20;

/**
 * Whether a file holds corpus passages rather than questions, judged by its first record. Reads
 * only the first line of a large JSONL corpus, so asking costs nothing next to ingesting it.
 */
export async function isCorpusFile(file: string): Promise<boolean> {
  const path = resolve(file);
  let head: string;
  let whole: boolean;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(PEEK);
      const { bytesRead } = await handle.read(buffer, 0, PEEK, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
      whole = bytesRead < PEEK;
    } finally {
      await handle.close();
    }
  } catch (cause) {
    throw new InputError(describeReadError(path, cause as NodeJS.ErrnoException), { file: path }, { cause });
  }
  if (whole) return looksLikeCorpus(parseRecords(head, path));
  const firstLine = head.replace(/^\uFEFF/, '').trimStart().split('\n', 1)[0] ?? '';
  try {
    return looksLikeCorpus([{ value: JSON.parse(firstLine), line: 1 }]);
  } catch {
    // Not JSONL: a large JSON array or object, read whole.
    return looksLikeCorpus(await readRecords(path));
  }
}
