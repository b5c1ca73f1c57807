import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readmeUsageExample } from '@multihop/testing';

const root = join(__dirname, '..');
const example = join(root, 'examples', 'usage.ts');

it("README's usage example is examples/usage.ts verbatim", () => {
  expect(readmeUsageExample(root)).toBe(readFileSync(example, 'utf8'));
});

it('the usage example runs as a plain Node script and its assertions hold', async () => {
  // Outside jest, as a reader would run it: a failed assert exits non-zero and rejects here.
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@multihop/ts-register', example], { cwd: root });
  expect(stdout).toContain('Chief of Protocol');
  expect(stdout).toContain('flowchart TD');
});
