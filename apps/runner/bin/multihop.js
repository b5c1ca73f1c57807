#!/usr/bin/env node
'use strict';
// In the workspace (src/ present) the CLI runs from its TypeScript sources, so it works right
// after `npm install`; a published install runs the built dist/.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const source = join(__dirname, '..', 'src', 'cli.ts');
if (existsSync(source)) require('@multihop/ts-register');
const { main } = require(existsSync(source) ? source : join(__dirname, '..', 'dist', 'cli.js'));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`multihop: ${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
  },
);
