#!/usr/bin/env node
'use strict';
// An installed runner runs its built dist/. In the workspace it runs dist/ too when a build is
// there and no source file of the workspace is newer than it; otherwise it runs the TypeScript
// sources through the workspace's private @multihop/ts-register (a devDependency: an npm
// install of the runner never needs it).
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'cli.js');
const source = join(root, 'src', 'cli.ts');

/** The newest modification time of any .ts file under the workspace's package sources. */
function newestSource(workspace) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const group of ['packages', 'apps']) {
    const base = join(workspace, group);
    if (!existsSync(base)) continue;
    for (const pkg of readdirSync(base)) if (existsSync(join(base, pkg, 'src'))) walk(join(base, pkg, 'src'));
  }
  return newest;
}

let entry = built;
if (existsSync(source)) {
  const fresh = existsSync(built) && statSync(built).mtimeMs >= newestSource(join(root, '..', '..'));
  if (!fresh || process.env.MULTIHOP_FROM_SOURCE === '1') {
    require('@multihop/ts-register');
    entry = source;
  }
}
const { main } = require(entry);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // main answers every error of the project's own kinds and of the file system in one line; what
    // reaches here is a bug, and its stack is what a bug report needs.
    process.stderr.write(`multihop: ${error && error.stack ? error.stack : error}\n`);
    process.stderr.write('multihop: this is a bug; please report it with the command you ran\n');
    process.exitCode = 1;
  },
);
