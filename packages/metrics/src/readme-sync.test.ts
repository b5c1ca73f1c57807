import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The README's usage example is only worth reading if it runs: it must be readme.test.ts verbatim.
it('README usage example is src/readme.test.ts verbatim', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const example = /## Usage\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBe(readFileSync(join(__dirname, 'readme.test.ts'), 'utf8'));
});
