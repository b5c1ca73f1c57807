import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { MultihopError } from '@multihop/core';

const scratch = mkdtempSync(join(tmpdir(), 'sqlite-addon-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// better-sqlite3 as npm 12 leaves it when the project's allowScripts does not list it: the
// package and its `bindings` helper installed, the install script (which fetches or builds
// build/Release/better_sqlite3.node) never run. A copy of the real package without its build/;
// with `addon`, that file holds those bytes instead (an addon that is no shared object).
function betterSqliteCopy(name: string, addon?: string): string {
  const root = join(scratch, name, 'node_modules');
  const real = dirname(require.resolve('better-sqlite3/package.json'));
  mkdirSync(join(root, 'better-sqlite3'), { recursive: true });
  cpSync(join(real, 'package.json'), join(root, 'better-sqlite3', 'package.json'));
  cpSync(join(real, 'lib'), join(root, 'better-sqlite3', 'lib'), { recursive: true });
  for (const helper of ['bindings', 'file-uri-to-path']) {
    cpSync(dirname(require.resolve(`${helper}/package.json`, { paths: [real] })), join(root, helper), { recursive: true });
  }
  if (addon !== undefined) {
    mkdirSync(join(root, 'better-sqlite3', 'build', 'Release'), { recursive: true });
    writeFileSync(join(root, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), addon);
  }
  return join(root, 'better-sqlite3');
}

/** openSqliteStore(file) in a fresh module registry whose better-sqlite3 is `copy`: what it threw. */
function openWith(copy: string, file: string): MultihopError {
  let thrown: unknown;
  jest.isolateModules(() => {
    jest.doMock('better-sqlite3', () => require(copy));
    try {
      const { openSqliteStore } = require('./sqlite') as typeof import('./sqlite');
      openSqliteStore(file);
    } catch (error) {
      thrown = error;
    } finally {
      jest.dontMock('better-sqlite3');
    }
  });
  // The isolated registry has its own @multihop/core, so the class is checked by name.
  expect((thrown as Error | undefined)?.name).toBe('MultihopError');
  return thrown as MultihopError;
}

describe('a SQLite store whose better-sqlite3 addon does not load', () => {
  it('says how to build the addon (allowScripts, npm rebuild), names no fault in the file, and makes nothing on disk', () => {
    const dir = join(scratch, 'store-unbuilt');
    const error = openWith(betterSqliteCopy('unbuilt'), join(dir, 'checkpoints.sqlite'));
    expect(error.code).toBe('SQLITE_ADDON');
    expect(error.message).toContain("better-sqlite3's native addon cannot be loaded, so no SQLite checkpoint store can be opened (Could not locate the bindings file.). ");
    expect(error.message).toContain('npm pkg set allowScripts.better-sqlite3=true --json');
    expect(error.message).toContain('npm rebuild better-sqlite3');
    expect(error.message).not.toMatch(/delete/i);
    // One line: the paths the bindings helper tried stay in the cause.
    expect(error.message).not.toContain('\n');
    expect((error.cause as Error).message).toContain('Tried:');
    expect(existsSync(dir)).toBe(false);
  });

  it('says the same for an addon file that is no addon (a damaged or foreign build)', () => {
    const error = openWith(betterSqliteCopy('damaged', 'not a shared object\n'.repeat(100)), join(scratch, 'store-damaged', 'checkpoints.sqlite'));
    expect(error.code).toBe('SQLITE_ADDON');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ERR_DLOPEN_FAILED');
    expect(error.message).toContain('invalid ELF header');
    expect(error.message).toContain('npm rebuild better-sqlite3');
  });

  it("keeps the whole of Node's message for an addon built for another Node.js, on one line", () => {
    const { addonError } = require('./sqlite') as typeof import('./sqlite');
    // Node's wording when the addon's ABI is not its own (node/src/node_binding.cc).
    const abi = new Error(
      "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
    );
    const error = addonError(abi);
    expect(error.message).toContain('was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 127.');
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain('after a Node.js upgrade, the rebuild alone');
  });
});
