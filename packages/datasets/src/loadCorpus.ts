import { resolve } from 'node:path';
import { z } from 'zod';
import { CorpusBuilder } from './CorpusBuilder';
import type { CorpusPassage } from './Dataset';
import { readRecords, type SourceRecord } from './readRecords';
import { validateRecord } from './validateRecord';

const CorpusRecord = z.object({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  title: z.string(),
  text: z.string(),
});
const SentenceList = z.array(z.string());

/**
 * Reads a corpus file into passages: JSONL or a JSON array of `{id?, title, text}` (without an
 * `id`, the stable title+hash id is used), or a JSON object `{title: [sentences]}` (HippoRAG's
 * HotpotQA corpus).
 */
export async function loadCorpus(file: string, into: CorpusBuilder = new CorpusBuilder()): Promise<CorpusPassage[]> {
  const path = resolve(file);
  const records = await readRecords(path);
  addCorpusRecords(records, path, into);
  return into.passages();
}

export function addCorpusRecords(records: SourceRecord[], file: string, into: CorpusBuilder): void {
  for (const record of records) {
    if (record.key !== undefined) {
      into.addSentences(record.key, validateRecord(SentenceList, record, file));
      continue;
    }
    const r = validateRecord(CorpusRecord, record, file);
    into.addText(r.title, r.text, r.id);
  }
}
