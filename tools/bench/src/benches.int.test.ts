import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';
import { parseBenchFlags } from './flags';

// The benches run as `npm run bench:*` does, at their smallest sizes: that they finish and print
// their ratios, not how fast (tests assert no wall-clock times). bench:engine went a month unable
// to run, its plain baselines stale, with nothing to notice.
const root = join(__dirname, '..', '..', '..');
const env = { ...process.env, MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' };
const bench = (file: string, ...flags: string[]) =>
  spawnSync(process.execPath, ['-r', '@multihop/ts-register', join(__dirname, file), ...flags], { cwd: root, env, encoding: 'utf8', timeout: 300_000 });

it('bench:engine runs PAR²-RAG and OPERA against their plain code, which answers alike in as many calls, and prints the ratios', () => {
  const run = bench('engine.ts', '--questions=3', '--rounds=1', '--fanout-runs=1');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout.match(/\*\*ratio engine \/ plain\*\* \| \*\*\d+\.\d+×\*\*/g)).toHaveLength(2);
  expect(run.stdout).toMatch(/\*\*ratio wall \/ critical path\*\* \| \*\*\d+\.\d+×\*\*/);
}, 300_000);

it('bench:startup prints each command against a bare node start taken in the same run', () => {
  const run = bench('startup.ts', '--runs=1');
  // The stderr is in the comparison so that a failure shows why (a command's own message).
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toMatch(/\| `multihop workflows` \(sources\) \| \d+ \| \d+\.\d+× \| \d+ \|/);
}, 300_000);

it('bench flags: --key=value and --key value, refusing an unknown flag or a count that is none, by name', () => {
  const kinds = { questions: 'count', dir: 'text', json: 'switch' } as const;
  expect(parseBenchFlags(kinds, ['--questions', '4', '--dir=/tmp/x', '--json'])).toEqual({ questions: '4', dir: '/tmp/x', json: 'true' });
  expect(() => parseBenchFlags(kinds, ['--questoins=4'])).toThrow('bench: unknown flag --questoins; this bench takes --questions, --dir, --json');
  expect(() => parseBenchFlags(kinds, ['--questions=x'])).toThrow('bench: --questions must be a whole number of at least 1, got "x"');
  expect(() => parseBenchFlags(kinds, ['--dir'])).toThrow('bench: --dir needs a value (--dir=V or --dir V)');
  const refused = bench('startup.ts', '--runz=1');
  expect({ status: refused.status, stderr: refused.stderr.trim() }).toEqual({ status: 2, stderr: 'bench: unknown flag --runz; this bench takes --runs' });
});
