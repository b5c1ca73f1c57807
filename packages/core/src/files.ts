import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * JSON.parse whose error says where: `line L, column C` (Node 20's message gives only a character
 * offset, `at position 56`, which nobody counts by hand). Errors of reading the file are left as
 * they are (they carry their errno).
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const at = /at position (\d+)/.exec(error.message);
    if (!at || /\bline \d+/.test(error.message)) throw error;
    const offset = Number(at[1]);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    throw new SyntaxError(`${error.message.replace(/ in JSON at position \d+.*$/s, '')} at line ${line}, column ${column}`, { cause: error });
  }
}

/** The sha1 of a file's bytes (hex): what `Workflow.artifacts` records of a file a workflow was built from. */
export function fileSha1(path: string): string {
  return createHash('sha1').update(readFileSync(path)).digest('hex');
}

/**
 * Reads a JSON file (UTF-8), its syntax errors naming line and column (see parseJsonText). A
 * byte-order mark at its start (Windows Notepad writes one) is not part of the JSON and is skipped.
 */
export function readJsonFile(path: string): unknown {
  return parseJsonText(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
}

/**
 * Writes `text` to `path` whole or not at all: into `<path>.tmp` beside it, then renamed over it.
 * A reader (another process, a re-run after a kill) sees the old file or the new one, never a
 * half-written one. One writer per file. On failure the temporary file is removed and the
 * error's `path` is `path`, the file the caller knows, not the temporary one.
 */
export function writeFileWhole(path: string, text: string): void {
  const temp = `${path}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the error below says what went wrong
    }
    if (typeof (error as NodeJS.ErrnoException | null)?.code === 'string') (error as NodeJS.ErrnoException).path = path;
    throw error;
  }
}

/**
 * Creates a directory and any missing parents, one level at a time, so a level that cannot be
 * made fails with its own errno (`ENOENT`, `ENOTDIR`, `EACCES`) naming that level. Used instead
 * of `mkdirSync(path, { recursive: true })`, which on Node 20 loops forever where mkdir answers
 * ENOENT under an existing directory (a path under /proc or /sys). A level another process
 * creates meanwhile is taken as made.
 */
export function makeDirectory(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // The path itself is a file: Node's own error for it, as mkdirSync(path, { recursive: true }) gives.
  if (!statSync(path).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: 'EEXIST', errno: -17, syscall: 'mkdir', path });
  }
}
