'use strict';
// Jest globalTeardown (jest.preset.js): removes the run's temporary directory (tmpdir-setup.js)
// and names what the tests left in it, so a test that forgets its clean-up is visible.
const { readdirSync, rmSync } = require('node:fs');

module.exports = function tearDownTestTmpdir() {
  const sandbox = process.env.MULTIHOP_TEST_TMPDIR;
  if (!sandbox || process.env.TMPDIR !== sandbox || process.env.MULTIHOP_TEST_TMPDIR_OWNER !== String(process.pid)) return;
  let left = [];
  try {
    left = readdirSync(sandbox);
  } catch {
    left = [];
  }
  if (left.length > 0 && process.env.MULTIHOP_TEST_TMPDIR_QUIET !== '1') {
    const kinds = [...new Set(left.map((name) => name.replace(/[A-Za-z0-9]{6}$/, '*')))].sort();
    process.stderr.write(`\ntmpdir: tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} (removed now): ${kinds.join(', ')}\n`);
  }
  rmSync(sandbox, { recursive: true, force: true });
  const had = process.env.MULTIHOP_TEST_TMPDIR_HAD;
  if (had) process.env.TMPDIR = had.slice(1);
  else delete process.env.TMPDIR;
  delete process.env.MULTIHOP_TEST_TMPDIR;
  delete process.env.MULTIHOP_TEST_TMPDIR_OUTER;
  delete process.env.MULTIHOP_TEST_TMPDIR_HAD;
  delete process.env.MULTIHOP_TEST_TMPDIR_OWNER;
};
