import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeUsageExample, usageExampleSource } from '@multihop/testing/readme';
import { NAMED_DATASETS } from './namedDatasets';

it('README usage example is examples/usage.ts verbatim', () => {
  const root = join(__dirname, '..');
  expect(readmeUsageExample(root)).toBe(usageExampleSource(root));
});

it("README's table of the named datasets' files is NAMED_DATASETS", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8').split('## Named datasets')[1]!.split('\n## ')[0]!;
  const rows = [...readme.matchAll(/^\| `([\w-]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toEqual(Object.entries(NAMED_DATASETS).map(([name, d]) => [name, d.file]));
});
