import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MultihopError } from '@multihop/core';
import { betterSqliteCopy } from '@multihop/testing';

const scratch = mkdtempSync(join(tmpdir(), 'sqlite-addon-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const error = openWith(betterSqliteCopy(join(scratch, 'unbuilt')), join(dir, 'checkpoints.sqlite'));
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
    const error = openWith(betterSqliteCopy(join(scratch, 'damaged'), 'not a shared object\n'.repeat(100)), join(scratch, 'store-damaged', 'checkpoints.sqlite'));
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
