import type { Dataset } from '@multihop/datasets';
import type { CorpusSetting } from './CorpusManifest';

/**
 * The default corpus name of a dataset in a setting: `<dataset>-<setting>`, e.g. `hotpotqa-dev-open`
 * for a shared dataset. A question file given by path adds the first 8 hex of its content hash
 * (`dev-9f8e7d6c-open`), and a corpus file that joins adds its base name and hash
 * (`fullwiki-0a1b2c3d.wiki-1a2b3c4d-open`): two different files of one name (two `test.json`), or
 * a file edited since, never share a table, and the same file ingested again lands in the same one.
 */
export function datasetCorpusName(dataset: Dataset, setting: CorpusSetting): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'corpus';
  const questions = dataset.sourceSha1 ? `${safe(dataset.name)}-${dataset.sourceSha1.slice(0, 8)}` : safe(dataset.name);
  const file = dataset.corpusFile;
  if (!file) return `${questions}-${setting}`;
  const corpus = `${safe((file.path.split(/[\\/]/).pop() ?? 'corpus').replace(/\.(jsonl|json)$/i, ''))}-${file.sha1.slice(0, 8)}`;
  // A corpus file alone (no question file) is named after itself only.
  return dataset.source === file.path ? `${corpus}-${setting}` : `${questions}.${corpus}-${setting}`;
}
