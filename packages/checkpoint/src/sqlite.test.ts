import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { MultihopError } from '@multihop/core';

// better-sqlite3 as npm 12 leaves it when the project's allowScripts does not list it: the
// package and its `bindings` helper installed, the install script (which builds or fetches
// build/Release/better_sqlite3.node) never run. A copy of the real package without its build/.
function unbuiltBetterSqlite(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'unbuilt-sqlite-')), 'node_modules');
  const real = dirname(require.resolve('better-sqlite3/package.json'));
  mkdirSync(join(root, 'better-sqlite3'), { recursive: true });
  cpSync(join(real, 'package.json'), join(root, 'better-sqlite3', 'package.json'));
  cpSync(join(real, 'lib'), join(root, 'better-sqlite3', 'lib'), { recursive: true });
  for (const helper of ['bindings', 'file-uri-to-path']) {
    cpSync(dirname(require.resolve(`${helper}/package.json`, { paths: [real] })), join(root, helper), { recursive: true });
  }
  return join(root, 'better-sqlite3');
}

describe('a SQLite store whose better-sqlite3 addon does not load', () => {
  it('says how to build the addon (allowScripts, npm rebuild), names no fault in the file, and creates none', () => {
    const unbuilt = unbuiltBetterSqlite();
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    const file = join(dir, 'checkpoints.sqlite');
    let thrown: unknown;
    jest.isolateModules(() => {
      jest.doMock('better-sqlite3', () => require(unbuilt));
      const { openSqliteStore } = require('./sqlite') as typeof import('./sqlite');
      try {
        openSqliteStore(file);
      } catch (error) {
        thrown = error;
      }
    });
    jest.dontMock('better-sqlite3');
    // The isolated registry has its own @multihop/core, so the class is checked by name.
    expect((thrown as Error).name).toBe('MultihopError');
    const error = thrown as MultihopError;
    expect(error.code).toBe('SQLITE_ADDON');
    expect(error.message).toContain("better-sqlite3's native addon cannot be loaded, so no SQLite checkpoint store can be opened (Could not locate the bindings file.). ");
    expect(error.message).toContain('npm pkg set allowScripts.better-sqlite3=true --json');
    expect(error.message).toContain('npm rebuild better-sqlite3');
    expect(error.message).not.toMatch(/delete/i);
    // One line: the bindings helper's list of paths it tried stays in the cause.
    expect(error.message).not.toContain('\n');
    expect((error.cause as Error).message).toContain('Tried:');
    expect(require('node:fs').existsSync(file)).toBe(false);
  });

  it('says the same for an addon that loads as no addon (built for another Node.js, or damaged)', () => {
    const bogus = join(mkdtempSync(join(tmpdir(), 'bogus-addon-')), 'better_sqlite3.node');
    writeFileSync(bogus, 'not a shared object\n');
    const BetterSqlite = require('better-sqlite3') as new (file: string, options: { nativeBinding: string }) => unknown;
    let real: unknown;
    try {
      new BetterSqlite(':memory:', { nativeBinding: bogus });
    } catch (error) {
      real = error;
    }
    expect((real as NodeJS.ErrnoException).code).toBe('ERR_DLOPEN_FAILED');
    const { addonError } = require('./sqlite') as typeof import('./sqlite');
    const error = addonError(real);
    expect(error.message).toContain(`(${(real as Error).message.split('\n')[0]!.trim()})`);
    expect(error.message).toContain('after a Node.js upgrade, the rebuild alone');
  });
});
