import { readmeTestSource, readmeUsageExample } from '@multihop/testing';
import { join } from 'node:path';

it('README usage example is src/readme.test.ts verbatim', () => {
  const root = join(__dirname, '..');
  expect(readmeUsageExample(root)).toBe(readmeTestSource(root));
});
