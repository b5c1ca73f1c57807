'use strict';
// Lets plain `node` run this workspace's TypeScript from source, so the CLI and the benchmarks
// work right after `npm install` with no build step:
// - @swc/core (already the test transform) compiles each .ts file when it is required;
// - `@multihop/<pkg>` resolves through that package's `@multihop/source` export condition to its
//   src/index.ts — what `node --conditions=@multihop/source` does, but from inside the process,
//   so a bin script needs no re-spawn (a re-spawned child could outlive a killed parent).
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

if (!require.extensions['.ts']) {
  require.extensions['.ts'] = function compile(module, filename) {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    });
    module._compile(code, filename);
  };
}

const sourceEntries = new Map();
function sourceEntry(request, parent) {
  if (sourceEntries.has(request)) return sourceEntries.get(request);
  let entry;
  try {
    // `@multihop/<pkg>` or `@multihop/<pkg>/<subpath>` (a method's `./manifest`, `./offline`). Our
    // packages do not export `./package.json`, so it cannot be require.resolve'd: walk node_modules.
    const [scope, name, ...rest] = request.split('/');
    const pkgName = `${scope}/${name}`;
    const subpath = rest.length ? `./${rest.join('/')}` : '.';
    const from = parent && parent.filename ? path.dirname(parent.filename) : process.cwd();
    const pkgJson = Module._nodeModulePaths(from)
      .map((dir) => path.join(dir, pkgName, 'package.json'))
      .find((file) => fs.existsSync(file));
    const pkg = pkgJson ? JSON.parse(fs.readFileSync(pkgJson, 'utf8')) : {};
    const source = pkg.exports && pkg.exports[subpath] && pkg.exports[subpath]['@multihop/source'];
    if (pkgJson && source) {
      const file = path.join(path.dirname(pkgJson), source);
      if (fs.existsSync(file)) entry = file;
    }
  } catch {
    entry = undefined;
  }
  sourceEntries.set(request, entry);
  return entry;
}

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceSource(request, parent, ...rest) {
  if (typeof request === 'string' && /^@multihop\/[a-z0-9-]+(\/[a-z0-9-]+)?$/.test(request)) {
    const entry = sourceEntry(request, parent);
    if (entry) return entry;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
