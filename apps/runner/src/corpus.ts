import { ConfigError, type Query, type RetrieverPort } from '@multihop/core';
import { corpusAsDataset, loadDataset, type Dataset } from '@multihop/datasets';
import { CorpusStoreDamagedError, datasetCorpusName, openDatasetCorpus, type IngestProgress, type IngestReport } from '@multihop/retriever';

import type { Setting } from './setting';

export type { Setting } from './setting';

/** What a run or an evaluation searched: printed in eval's summary, and on stderr by run and ingest. */
export interface CorpusDescription {
  /** `closed-book`: the dataset brings no passages and no corpus file was given, so retrieval returns nothing. */
  setting: 'open' | 'closed' | 'closed-book';
  /** Distinct passages searchable (in the closed setting: the pool; each question sees its own). */
  corpusSize: number;
  /** The LanceDB corpus (table) name, or `(none)`. */
  corpus: string;
  /** The corpus file given with --corpus. */
  source?: string;
}

export interface OpenedCorpus {
  dataset: Dataset;
  setting: Setting;
  /** The LanceDB corpus name, or `(none)` when closed-book. */
  corpus: string;
  /** What the ingest did; absent when closed-book (nothing was ingested). */
  report?: IngestReport;
  describe: CorpusDescription;
  /** Warnings the user must see (closed-book, skipped records, gold not in the corpus), one per entry, for stderr. */
  notices: string[];
  /** The retriever a run on `query` uses: restricted to its own paragraphs in the closed setting. */
  retrieverFor(query: Query): RetrieverPort;
  close(): void;
}

export interface OpenCorpusOptions {
  /** A shared dataset name or a question file; without it, `corpus` alone is searched (run --question). */
  dataset?: string;
  setting: Setting;
  db?: string;
  /** A corpus file: searched alone (no dataset), or added to the dataset's open pool. */
  corpus?: string;
  /** A layout name (--layout), validated by @multihop/datasets. */
  layout?: string;
  /** Load the valid records of a file with invalid ones, and report the rest (--skip-invalid). */
  skipInvalid?: boolean;
  /** A question file without gold answers (a test split) loads, for what answers without scoring (predict, run --id). */
  goldOptional?: boolean;
  /** Drop the corpus's tables and ingest it anew (ingest --rebuild): repairs a damaged corpus. */
  rebuild?: boolean;
  /**
   * Where the ingest's progress goes, one line at a time (at most one progress line a second): the
   * command's stderr. Default: the process's stderr, so a first run never sits silent while it
   * ingests; `false` for none.
   */
  progress?: ((line: string) => void) | false;
}

const NOTHING: RetrieverPort = { search: async () => [] };
const QUOTED = 3;

/**
 * A dataset (a shared name or a path), a corpus file, or both, in the LanceDB store, ingested if it
 * is not yet, with its retriever. A dataset whose questions bring no passages, given no corpus file,
 * is closed-book: nothing is ingested, retrieval returns nothing, and `notices` says so.
 */
export async function openCorpus(options: OpenCorpusOptions): Promise<OpenedCorpus> {
  const { setting } = options;
  if (!options.dataset && !options.corpus) throw new ConfigError('give a dataset (--dataset) or a corpus file (--corpus)');
  if (setting === 'closed' && options.corpus) {
    throw new ConfigError(`--corpus ${options.corpus} joins the open pool, but the closed setting searches only each question's own paragraphs: use --setting open, or drop --corpus`);
  }
  const dataset = options.dataset
    ? await loadDataset(options.dataset, { corpus: options.corpus, layout: options.layout, skipInvalid: options.skipInvalid, setting, ...(options.goldOptional ? { gold: 'optional' as const } : {}) })
    : await corpusAsDataset(options.corpus as string);
  const notices = datasetNotices(dataset);
  const source = dataset.corpusFile?.path;

  if (dataset.passages.length === 0) {
    notices.unshift(
      `warning: closed-book: ${dataset.name} (${dataset.layout} layout) brings no passages and no corpus file was given, so retrieval returns nothing and every workflow answers from the model alone; pass --corpus FILE to search one`,
    );
    return {
      dataset,
      setting,
      corpus: '(none)',
      describe: { setting: 'closed-book', corpusSize: 0, corpus: '(none)' },
      notices,
      retrieverFor: () => NOTHING,
      close: () => undefined,
    };
  }
  if (setting === 'closed' && Object.keys(dataset.contexts).length === 0) {
    throw new ConfigError(`dataset ${dataset.name} (${dataset.layout} layout) has no per-question paragraphs: use --setting open`);
  }
  const write = options.progress === false ? undefined : (options.progress ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  let opened;
  try {
    opened = await openDatasetCorpus(dataset, {
      setting,
      uri: options.db,
      ingest: { rebuild: options.rebuild, ...(write ? { onProgress: progressPrinter(write, options.db ?? '.multihop/lancedb') } : {}) },
    });
  } catch (error) {
    throw withRebuildAdvice(error, options, setting);
  }
  return {
    dataset,
    setting,
    corpus: opened.corpus,
    report: opened.report,
    describe: { setting, corpusSize: opened.report.manifest.counts.passages, corpus: opened.corpus, ...(source ? { source } : {}) },
    notices,
    retrieverFor: (query) => opened.retriever.forQuestion(query.id),
    close: () => opened.close(),
  };
}

/**
 * The corpus a queued eval's workers must search as the eval does, named without the question
 * file's content hash: the workers check each question against the eval's (its digest) on their
 * own, so a copy whose one question differs still runs the others, while the pool's files and
 * size must match.
 */
export function searchedCorpus(corpus: OpenedCorpus): { corpus: string; passages: number } {
  const name = corpus.describe.setting === 'closed-book' ? corpus.corpus : datasetCorpusName({ ...corpus.dataset, sourceSha1: undefined }, corpus.setting);
  return { corpus: name, passages: corpus.describe.corpusSize };
}

/** `804 ms`, `2.3 s`: a duration as a reader wants it. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Ingest progress as lines: the start, each level's last rows, indexing and the end always; rows in between at most once a second. */
function progressPrinter(write: (line: string) => void, where: string): (progress: IngestProgress) => void {
  let last = 0;
  const throttled = (line: string) => {
    const now = Date.now();
    if (now - last < 1000) return;
    last = now;
    write(line);
  };
  return (p) => {
    switch (p.phase) {
      case 'waiting':
      case 'repair':
        write(p.message);
        break;
      case 'start': {
        last = Date.now();
        const totals = Object.entries(p.totals).map(([level, n]) => `${n.toLocaleString('en-US')} ${level}s`).join(', ');
        write(`${p.rebuild ? 'rebuilding' : 'ingesting'} corpus ${p.corpus}${totals ? ` (${totals})` : ''} into ${where}; once per input, later runs reuse it`);
        break;
      }
      case 'write': {
        const line = `  ${p.level}s ${p.done.toLocaleString('en-US')}${p.total === undefined ? '' : `/${p.total.toLocaleString('en-US')}`}`;
        if (p.done === p.total) {
          last = Date.now();
          write(line);
        } else throttled(line);
        break;
      }
      case 'index':
        last = Date.now();
        write('  indexing');
        break;
      case 'done':
        write(`ingested corpus ${p.corpus} in ${formatDuration(p.ms)}`);
        break;
    }
  };
}

/** A damaged store's error with the command that rebuilds this very corpus. */
function withRebuildAdvice(error: unknown, options: OpenCorpusOptions, setting: Setting): unknown {
  if (!(error instanceof CorpusStoreDamagedError) || /regular file/.test(error.reason)) return error;
  const command = options.dataset
    ? `multihop ingest --dataset ${options.dataset}${options.corpus ? ` --corpus ${options.corpus}` : ''}${setting === 'closed' ? ' --setting closed' : ''}${options.db ? ` --db ${options.db}` : ''} --rebuild`
    : undefined;
  return new CorpusStoreDamagedError(error.uri, error.reason, error.corpus, {
    cause: error.cause,
    advice: `${command ? `rebuild ${error.corpus ? `corpus ${error.corpus}` : 'it'} with \`${command}\`, or ` : ''}delete ${error.uri} (every corpus in it is then ingested again when next used)`,
  });
}

/** The loader's findings a user must see: records skipped, empty content, and gold the corpus does not hold. */
function datasetNotices(dataset: Dataset): string[] {
  const notices: string[] = [];
  if (dataset.answerAliases) {
    const { path, questionIds } = dataset.answerAliases;
    notices.push(`answer aliases: ${path} adds aliases and demonyms to the gold answers of ${questionIds.length} of ${dataset.questions.length} questions (by their answer_id), as 2WikiMultiHopQA's official evaluation scores them`);
  }
  for (const warning of dataset.contentWarnings ?? []) notices.push(`warning: ${warning}`);
  const skipped = dataset.skipped;
  if (skipped.length > 0) {
    const shown = skipped.slice(0, QUOTED).map((p) => `\n  ${p.message.split('\n')[0]}`).join('');
    notices.push(`warning: --skip-invalid left out ${skipped.length} invalid record${skipped.length === 1 ? '' : 's'} of ${dataset.source}:${shown}${skipped.length > QUOTED ? `\n  … and ${skipped.length - QUOTED} more` : ''}`);
  }
  const unresolved = Object.entries(dataset.unresolvedGold);
  if (unresolved.length > 0) {
    const titles = unresolved.reduce((n, [, list]) => n + list.length, 0);
    const examples = unresolved.slice(0, QUOTED).map(([id, list]) => `${id}: "${list[0]}"`).join(', ');
    notices.push(
      `warning: ${titles} gold title${titles === 1 ? '' : 's'} of ${unresolved.length} question${unresolved.length === 1 ? '' : 's'} match no passage of the corpus (e.g. ${examples}); ` +
        `retrieval metrics count only the gold the corpus holds, and a question with none has no retrieval scores${dataset.corpusFile ? '' : ' (pass --corpus FILE with those articles)'}`,
    );
  }
  return notices;
}
