import { basename, join, resolve } from 'node:path';
import { InputError } from '@multihop/core';
import { CorpusBuilder } from './CorpusBuilder';
import { LAYOUTS, type Dataset, type Layout } from './Dataset';
import { detectLayout } from './detectLayout';
import { fromHfHotpot } from './layouts/hfHotpot';
import { fromHotpot } from './layouts/hotpot';
import { fromIrcot } from './layouts/ircot';
import type { LayoutResult } from './layouts/LayoutResult';
import { fromMusique } from './layouts/musique';
import { fromPlain } from './layouts/plain';
import { addCorpusRecords } from './loadCorpus';
import { isDatasetName, NAMED_DATASETS } from './namedDatasets';
import { readRecords, type SourceRecord } from './readRecords';
import { resolveDatasetsDir } from './resolveDatasetsDir';

export interface LoadDatasetOptions {
  /** Override layout detection. */
  layout?: Layout;
  /** A corpus file (required for the plain layout; for the others its passages join the open pool). */
  corpus?: string;
  /** Keep only the first `limit` questions (their paragraphs only, unless a corpus file is given). */
  limit?: number;
  /** Name of the dataset; defaults to the named dataset's name or the file's base name. */
  name?: string;
  /** Where the shared datasets folder is looked for (see resolveDatasetsDir). */
  datasetsDir?: string;
}

type LayoutLoader = (records: SourceRecord[], file: string, corpus: CorpusBuilder) => LayoutResult;

const LOADERS: Record<Layout, LayoutLoader> = {
  ircot: fromIrcot,
  hotpot: fromHotpot,
  'hf-hotpot': fromHfHotpot,
  musique: fromMusique,
  plain: fromPlain,
};

/**
 * Loads a named shared dataset (`hotpotqa-dev`, `2wiki-dev`, `musique-dev`, `hotpotqa-train`,
 * `musique-train`) or any file path, into core Questions plus the pooled corpus. The whole file is
 * validated before anything is returned, so a malformed line never leaves half a dataset behind.
 */
export async function loadDataset(nameOrPath: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  let file: string;
  let layout = options.layout;
  let name = options.name;
  if (isDatasetName(nameOrPath)) {
    const named = NAMED_DATASETS[nameOrPath];
    file = join(options.datasetsDir ?? resolveDatasetsDir(), named.file);
    layout ??= named.layout;
    name ??= nameOrPath;
  } else {
    file = resolve(nameOrPath);
    name ??= basename(file).replace(/\.(jsonl|json)$/i, '');
  }
  if (layout && !LAYOUTS.includes(layout)) {
    throw new InputError(`unknown layout "${layout}"; expected one of ${LAYOUTS.join(', ')}`, { field: 'layout' });
  }
  const all = await readRecords(file);
  const records = options.limit === undefined ? all : all.slice(0, Math.max(0, options.limit));
  layout ??= detectLayout(all, file);

  const corpus = new CorpusBuilder();
  if (options.corpus) {
    const corpusFile = resolve(options.corpus);
    addCorpusRecords(await readRecords(corpusFile), corpusFile, corpus);
  } else if (layout === 'plain') {
    throw new InputError(`${file}: the plain layout needs a corpus file (option \`corpus\`)`, { file, field: 'corpus' });
  }
  const result = LOADERS[layout](records, file, corpus);
  const seen = new Set<string>();
  for (const q of result.questions) {
    if (seen.has(q.id)) throw new InputError(`${file}: question id "${q.id}" appears twice`, { file, field: 'id' });
    seen.add(q.id);
    q.dataset = name;
  }
  return { name, source: file, layout, questions: result.questions, passages: corpus.passages(), contexts: result.contexts, warnings: result.warnings };
}
