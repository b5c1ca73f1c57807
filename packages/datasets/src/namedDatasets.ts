import type { Layout } from './Dataset';

export interface NamedDataset {
  /** Path relative to the shared datasets folder. */
  file: string;
  layout: Layout;
  description: string;
}

/** The shared files by name (see shared/datasets/README.md). */
export const NAMED_DATASETS = {
  'hotpotqa-dev': { file: 'hotpotqa/dev-500.ircot.jsonl', layout: 'ircot', description: 'HotpotQA distractor dev, 500 questions, IRCoT JSONL' },
  '2wiki-dev': { file: '2wikimultihopqa/dev-500.json', layout: 'hotpot', description: '2WikiMultiHopQA dev, 500 questions, original JSON' },
  'musique-dev': { file: 'musique/dev-200.jsonl', layout: 'musique', description: 'MuSiQue-Ans dev, 200 questions, official JSONL' },
  'hotpotqa-train': { file: 'hotpotqa/train-100.json', layout: 'hotpot', description: 'HotpotQA train, 100 questions, original JSON' },
  // Named .json but holds the official MuSiQue records as one JSON array, which readRecords handles.
  'musique-train': { file: 'musique/train-100.json', layout: 'musique', description: 'MuSiQue-Ans train, 100 questions, official records as a JSON array' },
} as const satisfies Record<string, NamedDataset>;

export type DatasetName = keyof typeof NAMED_DATASETS;

export function isDatasetName(name: string): name is DatasetName {
  return Object.prototype.hasOwnProperty.call(NAMED_DATASETS, name);
}
