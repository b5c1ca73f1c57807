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
  addCorpusRecords(parseRecords(await readText(path, CORPUS_FILE), path), path, into);
  return into.passages();
}

const CORPUS_FILE = { name: 'corpus file', field: 'corpus' };

/** A corpus file's passages plus what identifies it (path and content hash), added to `into` if given. */
export async function loadCorpusFile(file: string, into: CorpusBuilder = new CorpusBuilder()): Promise<CorpusFile & { added: CorpusPassage[]; warnings: string[] }> {
  const path = resolve(file);
  const text = await readText(path, CORPUS_FILE);
  const own = new CorpusBuilder();
  const warnings: string[] = [];
  addCorpusRecords(parseRecords(text, path), path, own, warnings);
  const added = own.passages();
  for (const p of added) into.addPassage(p);
  return { path, sha1: createHash('sha1').update(text).digest('hex'), passages: added.length, added, warnings };
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
    warnings: corpus.warnings,
    contentWarnings: corpus.warnings,
    skipped: [],
    unresolvedGold: {},
    corpusFile: { path: corpus.path, sha1: corpus.sha1, passages: corpus.passages },
  };
}

/**
 * Adds a corpus file's records to `into`. An id given twice keeps its first passage; when the two
 * differ, and when a passage has no text, a warning naming the lines goes to `warnings`.
 */
export function addCorpusRecords(records: SourceRecord[], file: string, into: CorpusBuilder, warnings: string[] = []): void {
  const firstLine = new Map<string, number>();
  const clashes: string[] = [];
  const empty: string[] = [];
  const add = (record: SourceRecord, title: string, text: string, id: string | undefined, sentences?: string[]) => {
    const before = id === undefined ? undefined : into.get(id);
    const added = sentences ? into.addSentences(title, sentences) : into.addText(title, text, id);
    if (before) {
      const now = sentences ? sentences.map((s) => s.trim()).join(' ') : text.trim();
      if (before.title !== title || before.text !== now) clashes.push(`"${added}" (lines ${firstLine.get(added)} and ${record.line})`);
      return;
    }
    if (!firstLine.has(added)) firstLine.set(added, record.line);
    if (!(sentences ? sentences.join('') : text).trim()) empty.push(`${title ? `"${title}"` : `id "${added}"`} (line ${record.line})`);
  };
  for (const record of records) {
    if (record.key !== undefined) {
      const sentences = validateRecord(SentenceList, record, file);
      add(record, record.key, '', undefined, sentences);
      continue;
    }
    const value = record.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw recordError(record, file, 'title', 'a corpus record must be an object: {title, text}, {title, passage} or {id, contents}');
    }
    if ('contents' in value) {
      const r = validateRecord(Contents, record, file);
      const { title, text } = splitContents(r.contents);
      add(record, title, text, r.id);
    } else if ('passage' in value && !('text' in value)) {
      const r = validateRecord(TitlePassage, record, file);
      add(record, r.title, r.passage, r.id);
    } else {
      if (!('text' in value)) throw recordError(record, file, 'text', 'required: a corpus record is {title, text}, {title, passage} or {id, contents}');
      const r = validateRecord(TitleText, record, file);
      add(record, r.title, r.text, r.id);
    }
  }
  const list = (items: string[]) => `${items.slice(0, 3).join(', ')}${items.length > 3 ? `, … and ${items.length - 3} more` : ''}`;
  if (clashes.length > 0) {
    warnings.push(`${file}: ${clashes.length} id${clashes.length === 1 ? ' is' : 's are'} given to two different passages: ${list(clashes)}; the first of each is kept (give every passage its own id)`);
  }
  if (empty.length > 0) {
    warnings.push(`${file}: ${empty.length} passage${empty.length === 1 ? ' has' : 's have'} no text: ${list(empty)}; kept, but only their titles can be found`);
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
