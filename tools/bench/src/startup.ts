/**
 * `npm run bench:startup`: how long the `multihop` bin takes to start, and how many modules it
 * loads, for `multihop workflows` and `multihop run` (one question on an ingested corpus, the
 * offline model), run from the TypeScript sources and, when `npm run build` has been run, from
 * dist/. Each command is spawned as a user would; medians of --runs (default 5), each also as a
 * ratio to a bare `node -e 0` started in the same run (the floor, which the machine sets).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchFlags, median } from './flags';

const args = benchFlags({ runs: 'count' });
const RUNS = Number(args['runs'] ?? 5);
const root = join(__dirname, '..', '..', '..');
const bin = join(root, 'apps', 'runner', 'bin', 'multihop.js');
const dir = mkdtempSync(join(tmpdir(), 'multihop-bench-startup-'));
// Counts every module file loaded (CommonJS), written at exit: the preload the bin is run with.
const counter = join(dir, 'count-modules.js');
writeFileSync(
  counter,
  `const Module = require('node:module'); const seen = new Set(); const load = Module._load;
   Module._load = function (request, parent, ...rest) { const out = load.call(this, request, parent, ...rest);
     try { seen.add(Module._resolveFilename(request, parent)); } catch {} return out; };
   process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULE_COUNT_FILE, String(seen.size)));`,
);

function time(argv: string[], env: Record<string, string>): { ms: number; modules: number } {
  const countFile = join(dir, 'count');
  const t = performance.now();
  const result = spawnSync(process.execPath, ['-r', counter, bin, ...argv], { cwd: root, env: { ...process.env, ...env, MODULE_COUNT_FILE: countFile }, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (result.status !== 0) {
    const how = result.error ? `could not run: ${result.error.message}` : result.signal ? `killed by ${result.signal}` : `exit code ${result.status}`;
    throw new Error(`multihop ${argv.join(' ')} failed (${how}); its stderr:\n${result.stderr}\nits stdout:\n${result.stdout}`);
  }
  return { ms, modules: Number(require('node:fs').readFileSync(countFile, 'utf8')) };
}


/** A bare `node -e 0`: the floor any command's start sits on, measured in this run, which the ratios are taken to. */
function bareNode(): number {
  const once = () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - t;
  };
  once();
  return median(Array.from({ length: RUNS }, once));
}

function measure(label: string, argv: string[], env: Record<string, string>, floor: number): string {
  time(argv, env); // warm the file cache and the corpus
  const runs = Array.from({ length: RUNS }, () => time(argv, env));
  const ms = median(runs.map((r) => r.ms));
  return `| ${label} | ${ms.toFixed(0)} | ${(ms / floor).toFixed(1)}× | ${runs[0]!.modules} |`;
}

const db = join(dir, 'db');
const run = ['run', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', db];
console.log(`# bench:startup — ${new Date().toISOString()}`);
console.log(`machine: ${cpus().length} cores, node ${process.version}; median of ${RUNS} runs after one warm-up\n`);
console.log('| command | ms | × a bare `node -e 0` | modules loaded |');
console.log('|---|---|---|---|');
try {
  const floor = bareNode();
  console.log(`| \`node -e 0\` | ${floor.toFixed(0)} | 1.0× | 0 |`);
  console.log(measure('`multihop workflows` (sources)', ['workflows'], { MULTIHOP_FROM_SOURCE: '1' }, floor));
  console.log(measure('`multihop run` par2-rag, one HotpotQA question (sources)', run, { MULTIHOP_FROM_SOURCE: '1' }, floor));
  if (existsSync(join(root, 'apps', 'runner', 'dist', 'cli.js'))) {
    console.log(measure('`multihop workflows` (dist)', ['workflows'], {}, floor));
    console.log(measure('`multihop run` par2-rag, one HotpotQA question (dist)', run, {}, floor));
  } else {
    console.log('\n(no apps/runner/dist: run `npm run build` first to time the built bin)');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
