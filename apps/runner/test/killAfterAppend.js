'use strict';
// Preloaded (node -r) into a local `multihop eval` by durable.int.test.ts: the process SIGKILLs
// itself the moment a line reaches results.jsonl, before the pair's thread is settled (dropped
// from the eval's checkpoint store): a crash in that gap.
const fs = require('node:fs');
const append = fs.appendFileSync;
fs.appendFileSync = function (file, ...rest) {
  const written = append.call(this, file, ...rest);
  if (String(file).endsWith('results.jsonl')) process.kill(process.pid, 'SIGKILL');
  return written;
};
