import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { CorpusBuilder } from './CorpusBuilder';
import type { CorpusFile, CorpusPassage, Dataset } from './Dataset';
import { parseRecords, readText, type SourceRecord } from './readRecords';
import { recordError, validateRecord } from './validateRecord';

const Id = z.union([z.string(), z.number()]).transform(String).optional();
const TitleText = z.object({ id: Id, title: z.string(), text: z.string() });
const TitlePassage = z.object({ id: Id, title: z.string(), passage: z.string() });
const Contents = z.object({ id: Id, contents: z.string() });
const SentenceList = z.array(z.string());

/**
 * Reads a corpus file into passages. Each record (JSONL or a JSON array) is one of
 * `{id?, title, text}`, `{id?, title, passage}`, or FlashRAG's `{id, contents}` whose contents are
 * `"Title"\ntext` (the title on the first line, quoted or not); a JSON object `{title: [sentences]}`
 * (HippoRAG's HotpotQA corpus) gives one passage per key. Without an `id`, the stable title+hash id
 * is used. Every record is validated; an error names the file, the line and the field.
 */
export async function loadCorpus(file: string, into: CorpusBuilder = new CorpusBuilder()): Promise<CorpusPassage[]> {
  const path = resolve(file);
  addCorpusRecords(parseRecords(await readText(path), path), path, into);
  return into.passages();
}

/** A corpus file's passages plus what identifies it (path and content hash), added to `into` if given. */
export async function loadCorpusFile(file: string, into: CorpusBuilder = new CorpusBuilder()): Promise<CorpusFile & { added: CorpusPassage[] }> {
  const path = resolve(file);
  const text = await readText(path);
  const own = new CorpusBuilder();
  addCorpusRecords(parseRecords(text, path), path, own);
  const added = own.passages();
  for (const p of added) into.addPassage(p);
  return { path, sha1: createHash('sha1').update(text).digest('hex'), passages: added.length, added };
}

/**
 * A corpus file alone as a dataset without questions (layout `plain`): what `run --question` over
 * `--corpus FILE` searches.
 */
export async function corpusAsDataset(file: string): Promise<Dataset> {
  const corpus = await loadCorpusFile(file);
  return {
    name: basename(corpus.path).replace(/\.(jsonl|json)$/i, ''),
    source: corpus.path,
    layout: 'plain',
    questions: [],
    passages: corpus.added,
    contexts: {},
    warnings: [],
    skipped: [],
    unresolvedGold: {},
    corpusFile: { path: corpus.path, sha1: corpus.sha1, passages: corpus.passages },
  };
}

export function addCorpusRecords(records: SourceRecord[], file: string, into: CorpusBuilder): void {
  for (const record of records) {
    if (record.key !== undefined) {
      into.addSentences(record.key, validateRecord(SentenceList, record, file));
      continue;
    }
    const value = record.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw recordError(record, file, 'title', 'a corpus record must be an object: {title, text}, {title, passage} or {id, contents}');
    }
    if ('contents' in value) {
      const r = validateRecord(Contents, record, file);
      const { title, text } = splitContents(r.contents);
      into.addText(title, text, r.id);
    } else if ('passage' in value && !('text' in value)) {
      const r = validateRecord(TitlePassage, record, file);
      into.addText(r.title, r.passage, r.id);
    } else {
      if (!('text' in value)) throw recordError(record, file, 'text', 'required: a corpus record is {title, text}, {title, passage} or {id, contents}');
      const r = validateRecord(TitleText, record, file);
      into.addText(r.title, r.text, r.id);
    }
  }
}

/** FlashRAG's `contents`: `"Title"\ntext`; a single line is text without a title. */
function splitContents(contents: string): { title: string; text: string } {
  const newline = contents.indexOf('\n');
  if (newline === -1) return { title: '', text: contents };
  const first = contents.slice(0, newline).trim();
  const title = first.length >= 2 && first.startsWith('"') && first.endsWith('"') ? first.slice(1, -1) : first;
  return { title, text: contents.slice(newline + 1) };
}
