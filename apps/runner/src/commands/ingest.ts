import { sayOnInterrupt, type Io } from '../io';
import { formatDuration, openCorpus, type OpenCorpusOptions } from '../corpus';

/** What `multihop ingest` takes: a dataset's corpus, opened (and ingested) as a run would open it. */
export type IngestCommandOptions = Pick<OpenCorpusOptions, 'setting' | 'db' | 'corpus' | 'layout' | 'skipInvalid' | 'rebuild'> & { dataset?: string };

export async function ingestCommand(io: Io, options: IngestCommandOptions): Promise<number> {
  // An ingest cut short leaves no manifest, and the store drops such a corpus's tables before the next ingest.
  const quiet = sayOnInterrupt(io, () => 'ingest: interrupted; a corpus whose ingest had not finished has no manifest, and the next ingest (or a run on it) ingests it afresh; one that had finished is kept');
  let corpus;
  try {
    // Ingesting reads paragraphs, not answers: a test split's (no gold) ingests as predict would search it.
    corpus = await openCorpus({ ...options, goldOptional: true, progress: io.err });
  } finally {
    quiet();
  }
  try {
    for (const notice of corpus.notices) io.err(notice);
    const { report } = corpus;
    if (!report) {
      io.out(`corpus (none): nothing to ingest, ${corpus.dataset.name} is closed-book (${corpus.dataset.questions.length} questions, no passages)`);
      return 0;
    }
    const updated = Object.entries(report.updated).filter(([, n]) => n).map(([level, n]) => `${n} ${level} rows`).join(', ');
    const added = (Object.entries(report.added).map(([level, n]) => `${n} ${level} rows`).join(', ') || 'nothing (already ingested)') + (updated ? `, replaced the text of ${updated}` : '');
    io.out(
      `corpus ${report.corpus}: ${options.rebuild ? 'rebuilt, ' : ''}added ${added} in ${formatDuration(report.ingestMs)} (index ${formatDuration(report.indexMs)})${corpus.describe.source ? `; corpus file ${corpus.describe.source}` : ''}`,
    );
    io.out(JSON.stringify(report.manifest, null, 2));
    return 0;
  } finally {
    corpus.close();
  }
}
