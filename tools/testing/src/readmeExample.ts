import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The first ```ts block under a README's "## Usage" heading. Each package keeps that block
 * identical to its `src/readme.test.ts`, so the example a reader copies is one that runs.
 */
export function readmeUsageExample(packageRoot: string): string | undefined {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  return /## Usage\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
}

/** The package's `src/readme.test.ts`, to compare with the README's example. */
export function readmeTestSource(packageRoot: string): string {
  return readFileSync(join(packageRoot, 'src', 'readme.test.ts'), 'utf8');
}
