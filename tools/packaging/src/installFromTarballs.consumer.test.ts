// A team's view of the published packages: pack every public package (its prepack builds it),
// install the tarballs into a fresh project outside the workspace, compile each README example
// against the installed type declarations and run it with plain node, and run the installed
// `multihop` CLI. Nothing of the workspace is linked in: no @multihop/source condition, no
// ts-register. Slow (a real npm install): its own Nx target, `test:consumer`.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRun, installedManifest, offerLocalPrebuilds, packAll, packStub, run, sharedDatasetsDir, stagePackages, tscBin, writeConsumerProject, type Packed } from './consumerProject';
import { keepPacked } from './packedTarballs';
import { publicPackages } from './workspace';

const SLOW = 20 * 60_000;
const packages = publicPackages();
const withExample = packages.filter((p) => existsSync(join(p.dir, 'examples', 'usage.ts')));
const env = { MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error', NODE_OPTIONS: '' };

let work: string;
let app: string;
let packed: Packed[] = [];
let installed = false;
let compiled = false;
let prebuildOffered = false;
let compileErrors: string[] = [];

const kB = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

beforeAll(async () => {
  // Kept on request (MULTIHOP_KEEP_CONSUMER=1) outside the test run's own temporary directory, which its teardown removes.
  const keep = process.env['MULTIHOP_KEEP_CONSUMER'] === '1';
  work = mkdtempSync(join(keep ? (process.env['MULTIHOP_TEST_TMPDIR_OUTER'] ?? tmpdir()) : tmpdir(), 'multihop-consumer-'));
  if (keep) process.stdout.write(`keeping the consumer project in ${work}\n`);
  app = join(work, 'app');
  const t0 = Date.now();
  const staged = stagePackages(join(work, 'stage'), packages);
  packed = await packAll(packages, staged, join(work, 'tarballs'));
  const t1 = Date.now();
  // CI's release dry run lists these same builds rather than building every package again (packedTarballs.ts).
  const keepIn = process.env['MULTIHOP_PACKED_OUT'];
  if (keepIn) keepPacked(keepIn, packed);

  const lines = packed.map((p) => {
    const deps = Object.entries(p.manifest.dependencies ?? {}).map(([n, v]) => `${n}@${v}`);
    const peers = Object.entries(p.manifest.peerDependencies ?? {}).map(([n, v]) => `${n}@${v}${p.manifest.peerDependenciesMeta?.[n]?.optional ? ' (optional)' : ''}`);
    return [
      `${p.name}@${p.version}: ${kB(p.size)} packed, ${kB(p.unpackedSize)} unpacked, ${p.files.length} files`,
      `    dependencies: ${deps.join(', ') || '(none)'}`,
      `    peerDependencies: ${peers.join(', ') || '(none)'}`,
    ].join('\n');
  });
  const total = packed.reduce((s, p) => s + p.size, 0);
  process.stdout.write(`\nPacked ${packed.length} public packages in ${((t1 - t0) / 1000).toFixed(0)} s (${kB(total)} in all):\n${lines.join('\n')}\n`);

  writeConsumerProject(app, packed, packStub(join(work, 'tarballs')));
  prebuildOffered = offerLocalPrebuilds(work);
  // Strict: an install script the project's allowScripts (the READMEs' advice) does not cover fails the install (npm 11.16+; npm 12 would skip it silently).
  // prebuild-install would take this variable over the rc file: a value in the environment is not the test's.
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--strict-allow-scripts'], { cwd: app, env: { npm_config_better_sqlite3_local_prebuilds: undefined } });
  if (install.status !== 0) throw new Error(describeRun('npm install (consumer project)', install));
  installed = true;
  const thirdParty = ['zod', '@langchain/core', '@langchain/langgraph', 'xstate', '@langchain/openai', '@lancedb/lancedb', 'apache-arrow'];
  const resolved = thirdParty.filter((n) => existsSync(join(app, 'node_modules', n))).map((n) => `${n}@${installedManifest(app, n).version}`);
  process.stdout.write(`npm install of the tarballs into a fresh project: ${(install.ms / 1000).toFixed(0)} s; resolved ${resolved.join(', ')}\n`);

  for (const pkg of withExample) cpSync(join(pkg.dir, 'examples', 'usage.ts'), join(app, 'examples', `${pkg.name.split('/')[1]}.ts`));
  // One compilation for all examples (tsc emits even with errors); each example's test reports its own errors.
  const tsc = run(process.execPath, [tscBin(), '-p', 'tsconfig.json'], { cwd: app });
  compileErrors = tsc.stdout.split('\n').filter((line) => line.trim());
  compiled = true;
}, SLOW);

afterAll(() => {
  if (work && process.env['MULTIHOP_KEEP_CONSUMER'] !== '1') rmSync(work, { recursive: true, force: true });
}, SLOW);

it('packs every public package with dist/ and no sources, tests or examples', () => {
  expect(packed.map((p) => p.name).sort()).toEqual(packages.map((p) => p.name).sort());
  expect(Object.fromEntries(packed.filter((p) => p.unwanted.length).map((p) => [p.name, p.unwanted]))).toEqual({});
  for (const p of packed) {
    const paths = p.files.map((f) => f.path);
    expect({ name: p.name, entry: paths.includes('dist/index.js') || paths.includes('dist/cli.js') }).toEqual({ name: p.name, entry: true });
  }
});

it('installs from the tarballs alone: every @multihop package comes from its tarball, none is a link', () => {
  expect(installed).toBe(true);
  for (const p of packed) {
    const manifest = installedManifest(app, p.name);
    expect({ name: manifest.name, version: manifest.version }).toEqual({ name: p.name, version: p.version });
    expect(existsSync(join(app, 'node_modules', p.name, 'src'))).toBe(false);
  }
  expect(existsSync(join(app, 'node_modules', '@multihop', 'ts-register'))).toBe(false);
  expect(existsSync(join(app, 'node_modules', '@multihop', 'testing'))).toBe(false);
});

it("installs better-sqlite3 from the workspace's binary, not by compiling it", () => {
  expect(installed).toBe(true);
  const addon = join(app, 'node_modules', 'better-sqlite3', 'build');
  expect(existsSync(join(addon, 'Release', 'better_sqlite3.node'))).toBe(true);
  // The workspace's own tests need its binary, so there is always one to offer. node-gyp writes
  // build/config.gypi when it compiles; prebuild-install only unpacks the .node file.
  expect(prebuildOffered).toBe(true);
  expect(existsSync(join(addon, 'config.gypi'))).toBe(false);
});

it('ships declarations that type-check with skipLibCheck off (errors inside third-party packages aside)', () => {
  expect(compiled).toBe(true);
  const r = run(process.execPath, [tscBin(), '-p', 'tsconfig.json', '--noEmit', '--skipLibCheck', 'false'], { cwd: app });
  const ours = r.stdout.split('\n').filter((line) => /^(node_modules\/@multihop\/|examples\/)/.test(line));
  expect(ours).toEqual([]);
}, 180_000);

describe.each(withExample.map((p) => [p.name, p.name.split('/')[1]!] as const))('%s README example', (_name, file) => {
  it('compiles against the installed .d.ts and runs with plain node', () => {
    expect(compiled).toBe(true);
    expect(compileErrors.filter((line) => line.startsWith(`examples/${file}.ts`) || !line.startsWith('examples/'))).toEqual([]);
    const r = run(process.execPath, [join('build', `${file}.js`)], { cwd: app, env, timeoutMs: 180_000 });
    if (r.status !== 0) throw new Error(describeRun(`examples/usage.ts of ${_name}`, r));
  }, 180_000);
});

describe('the installed multihop CLI', () => {
  it('lists the workflows of the installed method packages', () => {
    const r = run('npx', ['--no-install', 'multihop', 'workflows'], { cwd: app, env });
    if (r.status !== 0) throw new Error(describeRun('npx multihop workflows', r));
    for (const id of ['par2-rag', 'opera', 'direct', 'ircot', 'react']) expect(r.stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
  }, 120_000);

  it('serves the studio from the installed tarball (its built web app ships inside the runner)', async () => {
    // The installed bin itself (not through npx), so the signal at the end reaches the server.
    const child = spawn(process.execPath, [join(app, 'node_modules', '@multihop', 'runner', 'bin', 'multihop.js'), 'studio', '--port', '0'], { cwd: app, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const signed = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 60 s\n${out}\n${err}`)), 60_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=(\w+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        });
        child.on('exit', (code) => reject(new Error(`multihop studio exited with ${code}\n${err}`)));
      });
      const url = new URL(signed);
      const page = await (await fetch(url.origin)).text();
      expect(page).toContain('assets/studio.js');
      expect((await fetch(`${url.origin}/assets/studio.js`)).status).toBe(200);
      expect(err).not.toContain('building the web app');
      const workflows = (await (await fetch(`${url.origin}/api/workflows`, { headers: { authorization: `Bearer ${url.searchParams.get('token')}` } })).json()) as Array<{ id: string }>;
      expect(workflows.map((w) => w.id)).toEqual(expect.arrayContaining(['par2-rag', 'opera']));
    } finally {
      child.kill('SIGINT');
    }
  }, 120_000);

  it('answers a HotpotQA question with PAR²-RAG on the offline model, checkpointed in SQLite (the installed native better-sqlite3)', () => {
    const db = join(work, 'db');
    const checkpoints = join(work, 'checkpoints.sqlite');
    const r = run('npx', ['--no-install', 'multihop', 'run', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', db, '--thread', 'consumer-1', '--checkpoints', checkpoints, '--json'], {
      cwd: app,
      env,
      timeoutMs: 300_000,
    });
    if (r.status !== 0) throw new Error(describeRun('npx multihop run', r));
    // The run itself, not the printout's Gold line: an answer, from model calls and retrieved passages, through PAR²'s nodes.
    const result = JSON.parse(r.stdout) as { status: string; answer: string; usage: { llmCalls: number }; evidenceIds: string[]; trace: Array<{ node: string; kind: string }> };
    expect(result.status).not.toBe('error');
    expect(result.answer.trim()).not.toBe('');
    expect(result.usage.llmCalls).toBeGreaterThan(0);
    expect(result.evidenceIds.length).toBeGreaterThan(0);
    expect(result.trace.some((e) => e.kind === 'enter' && e.node === 'anchor')).toBe(true);
    expect(statSync(checkpoints).size).toBeGreaterThan(0);
  }, 300_000);
});
