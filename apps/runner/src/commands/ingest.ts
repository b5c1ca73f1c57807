import type { Io } from '../io';
import { openCorpus, type Setting } from '../corpus';

export async function ingestCommand(io: Io, options: { dataset: string; setting: Setting; db?: string; corpus?: string; layout?: string; skipInvalid?: boolean }): Promise<number> {
  const corpus = await openCorpus(options);
  try {
    for (const notice of corpus.notices) io.err(notice);
    const { report } = corpus;
    if (!report) {
      io.out(`corpus (none): nothing to ingest, ${corpus.dataset.name} is closed-book (${corpus.dataset.questions.length} questions, no passages)`);
      return 0;
    }
    const added = Object.entries(report.added).map(([level, n]) => `${n} ${level} rows`).join(', ') || 'nothing (already ingested)';
    io.out(`corpus ${report.corpus}: added ${added} in ${report.ingestMs} ms (index ${report.indexMs} ms)${corpus.describe.source ? `; corpus file ${corpus.describe.source}` : ''}`);
    io.out(JSON.stringify(report.manifest, null, 2));
    return 0;
  } finally {
    corpus.close();
  }
}
