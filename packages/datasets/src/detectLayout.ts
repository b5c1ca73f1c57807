import { InputError } from '@multihop/core';
import type { Layout } from './Dataset';
import type { SourceRecord } from './readRecords';

/** Tells the layout from the first record's fields; the caller can override it. */
export function detectLayout(records: SourceRecord[], file: string): Layout {
  const first = records[0];
  if (!first) throw new InputError(`${file} holds no records`, { file });
  const r = first.value;
  if (!r || typeof r !== 'object' || Array.isArray(r)) {
    throw new InputError(`${file}:${first.line}: cannot detect the layout: the first record is not an object`, { file, line: first.line });
  }
  const has = (k: string) => k in r;
  const context = (r as Record<string, unknown>).context;
  if (has('question_text') && has('contexts')) return 'ircot';
  if (has('paragraphs') && has('question')) return 'musique';
  if (Array.isArray(context)) return 'hotpot';
  if (context && typeof context === 'object' && 'title' in context && 'sentences' in context) return 'hf-hotpot';
  if (has('question') && has('answers')) return 'plain';
  const corpusLike = has('title') && has('text');
  throw new InputError(
    `${file}:${first.line}: cannot detect the layout from fields [${Object.keys(r).join(', ')}]` +
      (corpusLike ? ' (this looks like a corpus file: pass it as `corpus`)' : '') +
      '; pass `layout` to say which it is',
    { file, line: first.line },
  );
}
