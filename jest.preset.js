// Shared jest preset: @swc/jest transforms TypeScript (no type-check; `typecheck` targets do that),
// and the `@multihop/source` export condition makes workspace packages resolve to their src/,
// so tests run from source without a build (the TanStack pattern).
//
// Which tests run where is the packages' scripts' business: `test` leaves out `*.int.test.ts` and
// `*.e2e.test.ts` (LanceDB at scale, child processes, whole workflows), `test:int` runs only them;
// `npx jest <file>` runs any one file.
//
// Every run gets its own temporary directory (os.tmpdir() points into it), removed at the end,
// so tests cannot leave `multihop-*` folders behind in the real tmpdir: tools/packaging/jest/.
const path = require('node:path');

/** @param {string} dir the package directory (pass __dirname) */
module.exports = function preset(dir) {
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: 'node',
    testEnvironmentOptions: { customExportConditions: ['@multihop/source', 'node', 'node-addons', 'require', 'default'] },
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
      ],
    },
    moduleFileExtensions: ['ts', 'js', 'json'],
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    testTimeout: 60000,
    globalSetup: path.join(__dirname, 'tools/packaging/jest/tmpdir-setup.js'),
    globalTeardown: path.join(__dirname, 'tools/packaging/jest/tmpdir-teardown.js'),
  };
};
