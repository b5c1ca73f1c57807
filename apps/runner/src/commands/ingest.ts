import type { Io } from '../io';
import { openCorpus, type Setting } from '../corpus';

export async function ingestCommand(io: Io, options: { dataset: string; setting: Setting; db?: string; corpus?: string; layout?: string; skipInvalid?: boolean }): Promise<number> {
  const corpus = await openCorpus(options);
  try {
    const { report } = corpus;
    const added = Object.entries(report.added).map(([level, n]) => `${n} ${level} rows`).join(', ') || 'nothing (already ingested)';
    io.out(`corpus ${report.corpus}: added ${added} in ${report.ingestMs} ms (index ${report.indexMs} ms)`);
    io.out(JSON.stringify(report.manifest, null, 2));
    return 0;
  } finally {
    corpus.close();
  }
}
