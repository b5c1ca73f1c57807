// Runs the TypeScript benchmark sources directly: @swc/core (already the test transform) compiles
// each .ts file on require, and `--conditions=@multihop/source` resolves workspace packages to src/.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
