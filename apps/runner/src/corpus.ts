import { ConfigError, type Query, type RetrieverPort } from '@multihop/core';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';

import type { Setting } from './setting';

export type { Setting } from './setting';

export interface OpenedCorpus extends DatasetCorpus {
  setting: Setting;
  /** The retriever a run on `question` uses: restricted to its own paragraphs in the closed setting. */
  retrieverFor(query: Query): RetrieverPort;
}

/** A dataset (a shared name or a path) in the LanceDB store, ingested if it is not yet, with its retriever. */
export async function openCorpus(options: { dataset: string; setting: Setting; db?: string }): Promise<OpenedCorpus> {
  const opened = await openDatasetCorpus(options.dataset, { setting: options.setting, uri: options.db });
  if (options.setting === 'closed' && Object.keys(opened.dataset.contexts).length === 0) {
    opened.close();
    throw new ConfigError(`dataset ${opened.dataset.name} has no per-question paragraphs (plain layout): use --setting open`);
  }
  return { ...opened, setting: options.setting, retrieverFor: (query) => opened.retriever.forQuestion(query.id) };
}
