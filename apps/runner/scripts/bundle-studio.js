#!/usr/bin/env node
'use strict';
// prepack: the studio's web app ships inside the runner's tarball (dist/studio-app/), so
// `npx multihop studio` works from an npm install with no build step. The app is built from its
// sources at every pack, never taken from an earlier build, so a tarball cannot ship a stale one.
const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');

const runner = join(__dirname, '..');
const app = join(runner, '..', 'studio');
const built = join(app, 'dist');
const target = join(runner, 'dist', 'studio-app');

if (!existsSync(join(app, 'vite.config.ts'))) {
  console.error(`bundle-studio: ${app} is not the studio's source; run prepack inside the multihop workspace`);
  process.exit(1);
}
// vite's exports do not list its bin; its package.json is exported, and the bin sits beside it.
const vite = join(dirname(require.resolve('vite/package.json', { paths: [app] })), 'bin', 'vite.js');
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
if (!existsSync(join(built, 'index.html'))) {
  console.error(`bundle-studio: vite build wrote no ${join(built, 'index.html')}`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
cpSync(built, target, { recursive: true });
