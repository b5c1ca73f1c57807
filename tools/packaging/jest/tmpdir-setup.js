'use strict';
// Jest globalSetup (jest.preset.js): every test run gets a private temporary directory, and
// os.tmpdir() points into it for the run (TMPDIR is read on each call; jest workers and the child
// processes tests spawn inherit it). The teardown removes it, so no `multihop-*` directory
// outlives a run even when a test forgets its own clean-up.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = function setUpTestTmpdir() {
  if (process.env.MULTIHOP_TEST_TMPDIR) return; // a jest run started by a test shares the outer sandbox
  const outer = tmpdir();
  const sandbox = mkdtempSync(join(outer, 'multihop-jest-'));
  process.env.MULTIHOP_TEST_TMPDIR = sandbox;
  // Only the run that made the sandbox removes it: a nested jest run (a test that runs a generated
  // package's own tests) inherits these variables and must leave the outer run's directory alone.
  process.env.MULTIHOP_TEST_TMPDIR_OWNER = String(process.pid);
  process.env.MULTIHOP_TEST_TMPDIR_OUTER = outer;
  process.env.MULTIHOP_TEST_TMPDIR_HAD = process.env.TMPDIR === undefined ? '' : `=${process.env.TMPDIR}`;
  process.env.TMPDIR = sandbox;
};
