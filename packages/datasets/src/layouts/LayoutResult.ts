import type { Question } from '@multihop/core';

/** What a layout's loader contributes; the passages go into the shared CorpusBuilder. */
export interface LayoutResult {
  questions: Question[];
  contexts: Record<string, string[]>;
  warnings: string[];
}
