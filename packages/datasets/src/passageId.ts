import { createHash } from 'node:crypto';

/**
 * A passage id that is stable across files, subsets and the closed/open settings:
 * `<title>#<first 8 hex of sha1(whitespace-normalised text)>`.
 *
 * Why not the datasets' own paragraph ids: IRCoT `id` and MuSiQue `idx` are positions inside one
 * question ("0".."19"), not identities. Why not the title alone: MuSiQue has 216 titles with more
 * than one distinct paragraph in dev-200. The hash makes the same paragraph get the same id in
 * every question that carries it, which is what open-corpus deduplication and gold matching need.
 */
export function passageId(title: string, text: string): string {
  const normalised = text.replace(/\s+/g, ' ').trim();
  return `${title}#${createHash('sha1').update(normalised).digest('hex').slice(0, 8)}`;
}

/** The id of sentence `index` (0-based) of a passage, as the retriever stores sentence chunks. */
export function sentenceId(passage: string, index: number): string {
  return `${passage}:s${index}`;
}
