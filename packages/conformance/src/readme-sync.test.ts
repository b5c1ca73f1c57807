import { join } from 'node:path';
import { readmeUsageExample, usageExampleSource } from '@multihop/testing/readme';

it('README usage example is examples/usage.ts verbatim', () => {
  const root = join(__dirname, '..');
  expect(readmeUsageExample(root)).toBe(usageExampleSource(root));
});
