// Every relative link in the repository's Markdown leads somewhere: the file exists, and a
// `#fragment` into a Markdown file names one of its headings (GitHub's heading ids).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { workspaceRoot } from './workspace';

// The Markdown a clone would have once the working tree is committed: tracked and new (not
// ignored) files, less those deleted from the working tree (a removed method's README).
const markdown = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--deduplicate', '*.md'], { cwd: workspaceRoot, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(join(workspaceRoot, file)));

/** GitHub's id for a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
const headingId = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function headingIds(file: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const id = headingId(m[1]!);
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    ids.add(n ? `${id}-${n}` : id);
  }
  return ids;
}

/** Relative link targets in a Markdown file, code blocks and inline code left out. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

it('finds the Markdown files', () => {
  expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'packages/core/README.md']));
});

it('has headings read as GitHub reads them', () => {
  expect(headingId('Rollouts for MAPPO (`multihop rollouts --workflow mmoa-rag --group G`)')).toBe('rollouts-for-mappo-multihop-rollouts---workflow-mmoa-rag---group-g');
  expect(headingId('Results (offline model, held-out questions)')).toBe('results-offline-model-held-out-questions');
});

it.each(markdown)('%s: every relative link resolves', (file) => {
  const from = join(workspaceRoot, file);
  const broken = links(readFileSync(from, 'utf8')).filter((target) => {
    const [path, fragment] = target.split('#') as [string, string | undefined];
    const to = path ? join(dirname(from), decodeURIComponent(path)) : from;
    if (!existsSync(to)) return true;
    return fragment !== undefined && to.endsWith('.md') && !headingIds(to).has(fragment);
  });
  expect(broken.map((t) => `${relative(workspaceRoot, from)} → ${t}`)).toEqual([]);
});
