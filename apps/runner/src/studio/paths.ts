import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError } from '@multihop/core';

/**
 * A path the page asked for that the server will not open: outside every root (403), not there
 * (404), or there but not what it should be, such as an eval whose files do not parse (422).
 */
export class PathRefused extends Error {
  constructor(
    readonly status: 403 | 404 | 422,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The directories the studio may read from: the working directory and those named at start-up.
 * A requested path is resolved (relative to the first root), symlinks followed, and must lie
 * inside one of them; `..`, absolute paths elsewhere and links out of a root are refused.
 */
export class Roots {
  readonly dirs: string[];

  /** `what` names where each directory came from, for the error when one is not there (`--eval`). */
  constructor(dirs: readonly string[], what: (dir: string) => string = (dir) => dir) {
    for (const dir of dirs) if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`${what(dir)}: no such directory`);
    this.dirs = [...new Set(dirs.map((d) => realpathSync(resolve(d))))];
  }

  /** The real path of `requested` if it exists inside a root; throws PathRefused otherwise. */
  resolve(requested: string, what = 'path'): string {
    if (typeof requested !== 'string' || requested === '' || requested.includes('\0')) throw new PathRefused(403, `${what}: give a path`);
    const base = this.dirs[0] as string;
    const absolute = isAbsolute(requested) ? requested : resolve(base, requested);
    // Refuse before touching the file system when the path, as written, leaves every root.
    if (!this.dirs.some((root) => inside(root, resolve(absolute)))) throw new PathRefused(403, `${what} ${requested} is outside the directories the studio may open (${this.dirs.join(', ')})`);
    if (!existsSync(absolute)) throw new PathRefused(404, `${what} ${requested} does not exist`);
    const real = realpathSync(absolute);
    if (!this.dirs.some((root) => inside(root, real))) throw new PathRefused(403, `${what} ${requested} leads outside the directories the studio may open (${this.dirs.join(', ')})`);
    return real;
  }

  /** `requested` resolved inside `dir` (an eval's own file): refused if it leaves `dir`. */
  within(dir: string, requested: string, what = 'file'): string {
    // The eval directory as the page names it (relative to the studio's first root), not its real path.
    const shown = this.display(dir);
    if (typeof requested !== 'string' || requested === '' || requested.includes('\0') || isAbsolute(requested)) throw new PathRefused(403, `${what}: give a path relative to ${shown}`);
    const absolute = resolve(dir, requested);
    if (!inside(dir, absolute)) throw new PathRefused(403, `${what} ${requested} leaves ${shown}`);
    if (!existsSync(absolute) || !statSync(absolute).isFile()) throw new PathRefused(404, `${what} ${requested} does not exist in ${shown}`);
    const real = realpathSync(absolute);
    if (!inside(dir, real)) throw new PathRefused(403, `${what} ${requested} leads outside ${shown}`);
    return real;
  }

  /** A path as the page shows it: relative to the root it is in. */
  display(real: string): string {
    const root = this.dirs.find((r) => inside(r, real));
    if (!root) return real;
    return root === this.dirs[0] ? relative(root, real) || '.' : real;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
