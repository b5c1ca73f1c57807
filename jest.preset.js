// Shared jest preset: @swc/jest transforms TypeScript (no type-check; `typecheck` targets do that),
// and the `@multihop/source` export condition makes workspace packages resolve to their src/,
// so tests run from source without a build (the TanStack pattern).
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
  };
};
