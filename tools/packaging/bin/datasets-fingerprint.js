#!/usr/bin/env node
'use strict';
// An Nx runtime input (nx.json namedInputs.sharedDatasets): the shared datasets live outside the
// workspace (`../shared/datasets`, or MULTIHOP_DATASETS_DIR), where Nx's file hashing does not
// look, so tests that read them would replay cached results after the data changed. Prints one
// line that changes when any file there is added, removed, resized or rewritten.
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '..', '..', '..');
const dir = resolve(root, process.env.MULTIHOP_DATASETS_DIR || join('..', 'shared', 'datasets'));

if (!existsSync(dir)) {
  process.stdout.write(`datasets: none at ${dir}\n`);
} else {
  const hash = createHash('sha256');
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const { size, mtimeMs } = statSync(path);
        hash.update(`${relative(dir, path)}\0${size}\0${Math.trunc(mtimeMs)}\n`);
      }
    }
  };
  walk(dir);
  process.stdout.write(`datasets: ${hash.digest('hex')}\n`);
}
