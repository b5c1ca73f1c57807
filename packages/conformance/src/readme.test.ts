import { join } from 'node:path';
import { describeRun, runExample } from '@multihop/testing/readme';

// The README's usage example is examples/usage.ts, a plain script that asserts its own claims:
// here it runs as a reader would run it, in its own node process.
it('runs the README example (examples/usage.ts) to a clean exit', () => {
  const run = runExample(join(__dirname, '..'));
  if (run.status !== 0) throw new Error(describeRun('usage', run));
});
