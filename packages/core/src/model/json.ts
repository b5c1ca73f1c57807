/**
 * Pulls the JSON value out of a model reply. Models wrap JSON in ``` fences, prefix it with a
 * sentence, or follow it with commentary; all of those are accepted. Returns undefined when
 * the reply holds no parsable JSON object or array.
 */
export function extractJson(text: string): unknown {
  for (const value of jsonCandidates(text)) return value;
  return undefined;
}

/**
 * Every JSON value a reply may mean, in order: the whole reply, each fenced block, then each
 * balanced object or array in the text from left to right (none inside a balanced span already
 * read, whether it parsed or not: a value nested in a malformed object is a part of it, not the
 * reply). A reply that cites passages before its JSON ("From [1] and [2]: {…}") yields [1], [2]
 * and the object, so a caller can take the first its schema accepts.
 */
export function* jsonCandidates(text: string): Generator<unknown> {
  const trimmed = text.trim();
  const direct = tryParse(trimmed);
  if (direct.ok) {
    yield direct.value;
    return;
  }
  for (const fenced of fencedBlocks(trimmed)) {
    const parsed = tryParse(fenced);
    if (parsed.ok) yield parsed.value;
  }
  // Brackets that never close are each scanned to the end: a bounded number of them, so a long
  // reply full of them costs milliseconds, not seconds.
  let unclosed = 0;
  for (let start = 0; start < trimmed.length && unclosed < MAX_UNCLOSED; start++) {
    const ch = trimmed[start];
    if (ch !== '{' && ch !== '[') continue;
    const end = balancedEnd(trimmed, start);
    if (end < 0) {
      unclosed++;
      continue;
    }
    const parsed = tryParse(trimmed.slice(start, end + 1));
    start = end;
    if (parsed.ok) yield parsed.value;
  }
}

const MAX_UNCLOSED = 64;

/** Why the reply's first balanced object is not JSON (a trailing comma, a comment), for a repair round; undefined if it has none or it parses. */
export function malformedJson(text: string): string | undefined {
  const trimmed = text.trim();
  const start = trimmed.indexOf('{');
  if (start < 0) return undefined;
  const end = balancedEnd(trimmed, start);
  if (end < 0) return undefined;
  try {
    JSON.parse(trimmed.slice(start, end + 1));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text.startsWith('{') && !text.startsWith('[')) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  const fence = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g;
  for (let m = fence.exec(text); m; m = fence.exec(text)) blocks.push((m[1] ?? '').trim());
  return blocks;
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
