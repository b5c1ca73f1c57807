import { z } from 'zod';
import type { SourceRecord } from '../readRecords';
import { recordError, validateRecord } from '../validateRecord';
import type { LayoutContext, LoadedQuestion } from './LayoutContext';

const FramesRecord = z
  .object({
    Prompt: z.string().min(1),
    Answer: z.union([z.string(), z.number()]).transform(String),
    wiki_links: z.union([z.string(), z.array(z.string())]).optional(),
    reasoning_types: z.string().optional(),
  })
  .catchall(z.unknown());

/**
 * FRAMES (google/frames-benchmark, `test.tsv`): `Prompt`, `Answer`, `reasoning_types`
 * ("Numerical reasoning | Tabular reasoning"), and the Wikipedia articles a question needs as
 * `wiki_links` (a Python list literal in the TSV, a list in JSON) or the `wikipedia_link_1` ..
 * `wikipedia_link_11+` cells. It ships no passages: gold are the linked articles' titles, looked up
 * by title in the pool (a corpus file). The id is pandas's index column when the file has one, else
 * the row's position (the same numbers).
 */
export function framesRecord(record: SourceRecord, ctx: LayoutContext): LoadedQuestion {
  const r = validateRecord(FramesRecord, record, ctx.file);
  if (!r.Answer.trim()) throw recordError(record, ctx.file, 'Answer', 'is empty');
  let links: string[];
  try {
    links = r.wiki_links !== undefined && r.wiki_links !== '' ? linkList(r.wiki_links) : columnLinks(r);
  } catch (error) {
    throw recordError(record, ctx.file, 'wiki_links', (error as Error).message);
  }
  const titles = [...new Set(links.map(wikipediaTitle).filter((t) => t !== ''))];
  const index = r['Unnamed: 0'] ?? r.index ?? r.id;
  const id = typeof index === 'string' || typeof index === 'number' ? String(index).trim() : '';
  const type = r.reasoning_types
    ?.split('|')
    .map((t) => t.trim())
    .filter(Boolean)
    .join(' | ');
  return {
    question: {
      id: id || String(ctx.index),
      text: r.Prompt,
      answer: r.Answer,
      aliases: [],
      supportingIds: [],
      ...(type ? { type } : {}),
      hops: titles.length || undefined,
    },
    goldTitles: titles.map((title) => ({ title })),
  };
}

function columnLinks(r: Record<string, unknown>): string[] {
  return Object.keys(r)
    .filter((k) => /^wikipedia_link_\d+\+?$/.test(k))
    .flatMap((k) => {
      const v = r[k];
      if (typeof v !== 'string' || !v.trim()) return [];
      // `wikipedia_link_11+` holds every link past the tenth, as a list literal or separated by spaces.
      return v.trim().startsWith('[') ? linkList(v) : v.trim().split(/\s+/);
    });
}

function linkList(value: string | string[]): string[] {
  return Array.isArray(value) ? value : parseStringList(value);
}

/** Parses a Python list of string literals, as pandas writes a list into a TSV cell: `['a', "b's"]`. */
export function parseStringList(text: string): string[] {
  const s = text.trim();
  if (!s.startsWith('[') || !s.endsWith(']')) throw new Error(`expected a list like ['https://…', …], got ${JSON.stringify(s.slice(0, 60))}`);
  const out: string[] = [];
  let i = 1;
  const end = s.length - 1;
  while (i < end) {
    const c = s[i]!;
    if (/[\s,]/.test(c)) {
      i++;
      continue;
    }
    if (c !== "'" && c !== '"') throw new Error(`expected a quoted string at character ${i + 1} of ${JSON.stringify(s.slice(0, 60))}`);
    let value = '';
    let j = i + 1;
    for (; j < end && s[j] !== c; j++) {
      if (s[j] === '\\' && j + 1 < end) j++;
      value += s[j];
    }
    if (s[j] !== c) throw new Error(`an unterminated string in ${JSON.stringify(s.slice(0, 60))}`);
    out.push(value);
    i = j + 1;
  }
  return out;
}

/** `https://en.wikipedia.org/wiki/Ender%27s_Game#Plot` → `Ender's Game`. */
export function wikipediaTitle(link: string): string {
  const path = link.trim().replace(/[?#].*$/, '');
  const slug = path.includes('/wiki/') ? path.slice(path.indexOf('/wiki/') + 6) : (path.split('/').pop() ?? '');
  let title = slug;
  try {
    title = decodeURIComponent(slug);
  } catch {
    // A stray % that is not an escape: keep the slug as written.
  }
  return title.replace(/_/g, ' ').trim();
}
