import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * better-sqlite3 as npm 12 leaves it when a project's allowScripts does not list it: the package
 * and its `bindings` helper installed under `<dir>/node_modules`, the install script (which fetches
 * or builds build/Release/better_sqlite3.node) never run. A copy of the real package without its
 * build/; with `addon`, that file holds those bytes instead (an addon that is no shared object).
 * Returns the copy's folder, to be required in place of better-sqlite3.
 */
export function betterSqliteCopy(dir: string, addon?: string): string {
  const root = join(dir, 'node_modules');
  const real = dirname(require.resolve('better-sqlite3/package.json'));
  const copy = join(root, 'better-sqlite3');
  mkdirSync(copy, { recursive: true });
  cpSync(join(real, 'package.json'), join(copy, 'package.json'));
  cpSync(join(real, 'lib'), join(copy, 'lib'), { recursive: true });
  for (const helper of ['bindings', 'file-uri-to-path']) {
    cpSync(dirname(require.resolve(`${helper}/package.json`, { paths: [real] })), join(root, helper), { recursive: true });
  }
  if (addon !== undefined) {
    mkdirSync(join(copy, 'build', 'Release'), { recursive: true });
    writeFileSync(join(copy, 'build', 'Release', 'better_sqlite3.node'), addon);
  }
  return copy;
}

/**
 * A file for `node -r` (or NODE_OPTIONS="-r …") that makes `require('better-sqlite3')` load
 * `copy` (from betterSqliteCopy), so a child process such as the real CLI meets the copy where
 * the installed package would be. Written into `dir`; returns its path.
 */
export function betterSqlitePreload(dir: string, copy: string): string {
  const file = join(dir, 'better-sqlite3-preload.js');
  writeFileSync(
    file,
    `const Module = require('node:module');\nconst resolve = Module._resolveFilename;\nModule._resolveFilename = function (request, ...rest) {\n  return resolve.call(this, request === 'better-sqlite3' ? ${JSON.stringify(copy)} : request, ...rest);\n};\n`,
  );
  return file;
}
