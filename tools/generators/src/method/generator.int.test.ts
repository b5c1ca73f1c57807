import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';

const workspace = join(__dirname, '..', '..', '..', '..');
// FORCE_COLOR off: Nx colours its children's output, and the nested jest's summary is read as text.
const env = { ...process.env, FORCE_COLOR: '0', NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false', NX_SKIP_NX_CACHE: 'true', MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' };

/**
 * A copy of the workspace as a clone would have it (tracked and untracked-but-not-ignored
 * files), committed in a git repository of its own so that `git status` shows exactly what the
 * generator wrote. node_modules links to the real one's packages, except the workspace's own
 * @multihop links, which point into the copy.
 */
function copyWorkspace(): string {
  const copy = mkdtempSync(join(tmpdir(), 'multihop-generator-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: workspace, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    try {
      cpSync(join(workspace, file), join(copy, file));
    } catch {
      // A file deleted in the working tree but still in the index is not in a clone either.
    }
  }
  mkdirSync(join(copy, 'node_modules', '@multihop'), { recursive: true });
  for (const name of readdirSync(join(workspace, 'node_modules'))) {
    if (name !== '@multihop') symlinkSync(join(workspace, 'node_modules', name), join(copy, 'node_modules', name));
  }
  for (const name of readdirSync(join(workspace, 'node_modules', '@multihop'))) {
    symlinkSync(readlinkSync(join(workspace, 'node_modules', '@multihop', name)), join(copy, 'node_modules', '@multihop', name));
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=generator-test@localhost', '-c', 'user.name=generator test', ...args], { cwd: copy, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'workspace copy');
  return copy;
}

function run(cwd: string, command: string, ...args: string[]): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result;
}

describe.each(['langgraph', 'xstate'] as const)('npx nx g @multihop/tools:method (%s)', (engine) => {
  let copy: string;
  const name = `demo-${engine}`;
  beforeAll(() => {
    copy = copyWorkspace();
    run(copy, process.execPath, 'node_modules/nx/dist/bin/nx.js', 'g', '@multihop/tools:method', name, `--engine=${engine}`, '--no-interactive');
  }, 300_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('touches nothing outside the new method folder but the runner\'s one dependency line on it', () => {
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy, encoding: 'utf8' }).trimEnd().split('\n');
    expect(status.length).toBeGreaterThan(5);
    expect(status.filter((line) => !line.startsWith(`?? packages/${name}/`))).toEqual([' M apps/runner/package.json']);
    // The runner depends on every public method package (tools/packaging's METHOD_HOSTS rule): exactly one line added.
    const diff = execFileSync('git', ['diff', '--unified=0', '--', 'apps/runner/package.json'], { cwd: copy, encoding: 'utf8' });
    const changed = diff.split('\n').filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line));
    expect(changed).toEqual([`+    "@multihop/${name}": "^0.1.0",`]);
  });

  it('appears in `multihop workflows` and answers a real question through `multihop run`', () => {
    const listed = run(copy, process.execPath, 'apps/runner/bin/multihop.js', 'workflows').stdout;
    expect(listed).toMatch(new RegExp(`^${name}\\s+${engine}\\s`, 'm'));
    const db = join(copy, '.multihop', 'db');
    const answered = run(copy, process.execPath, 'apps/runner/bin/multihop.js', 'run', '--workflow', name, '--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', db).stdout;
    expect(answered).toMatch(/Answer: {3}\S/);
    expect(answered).toMatch(/Evidence \(\d+ passages\)/);
    const chart = run(copy, process.execPath, 'apps/runner/bin/multihop.js', 'chart', name, '--format', 'json').stdout;
    expect(JSON.parse(chart)).toMatchObject({ id: name, engine });
  }, 120_000);

  it('type-checks and passes its own tests as generated, and the workspace’s package rules', () => {
    const dir = join(copy, 'packages', name);
    // What `npm install` does for a new workspace package: link it, so its README example can import it by name.
    symlinkSync(join('..', '..', 'packages', name), join(copy, 'node_modules', '@multihop', name));
    // Its sources and tests, then its README example with Node's types only: the options of the workspace's two programs.
    run(dir, process.execPath, join(copy, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit');
    run(dir, process.execPath, join(copy, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join('examples', 'tsconfig.json'));
    const tests = spawnSync(process.execPath, [join(copy, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], { cwd: dir, env, encoding: 'utf8', timeout: 300_000 });
    expect(`${tests.stderr}`).toMatch(/Tests: +\d+ passed, \d+ total/);
    expect(tests.status).toBe(0);
    // The rules every published package is held to (tools/packaging): exports, scripts, README example,
    // dependencies; the new package's, and the runner's dependency rule alone (it must depend on
    // every public method package; its other rules, its README example among them, are not the
    // generator's to break and cost minutes).
    const rules = spawnSync(
      process.execPath,
      [join(copy, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--verbose', 'src/packaging.test.ts', 'src/dependencies.test.ts', '-t', `^@multihop/${name} |^@multihop/runner package\\.json declares exactly what its sources import`],
      { cwd: join(copy, 'tools', 'packaging'), env, encoding: 'utf8', timeout: 300_000 },
    );
    const failures = rules.stderr.split('\n').filter((line) => line.includes('●') || /^\s+[-+] /.test(line));
    expect(rules.stderr).toMatch(new RegExp(`@multihop/runner package.json\\s+✓ declares exactly what its sources import`));
    expect({ status: rules.status, summary: /Tests: +.*/.exec(rules.stderr)?.[0], failures }).toEqual({ status: 0, summary: expect.stringMatching(/^Tests: +\d+ skipped, \d+ passed/), failures: [] });
  }, 300_000);

  // Last: it breaks the copy's new package. A broken install of one method must not stop the others.
  it('when its install breaks, is named in a warning and left out, and every other workflow still runs', () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, ['apps/runner/bin/multihop.js', ...args], { cwd: copy, env, encoding: 'utf8', timeout: 300_000 });
    const question = ['--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', join(copy, '.multihop', 'db')];
    const breakModule = (file: string, message: string) => writeFileSync(file, `throw new Error('${message}');\n${readFileSync(file, 'utf8')}`);
    // Its offline handlers: still listed; its run fails naming the package and why.
    breakModule(join(copy, 'packages', name, 'src', 'offline', 'index.ts'), 'its offline module broke');
    const failed = cli('run', '--workflow', name, ...question);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain(`multihop: warning: the offline handlers of method package @multihop/${name} (`);
    expect(failed.stderr).toContain('did not load, so its workflows cannot run on the offline model: Error: its offline module broke');
    // Its manifest: left out of the list with a warning; every other workflow is listed and runs.
    breakModule(join(copy, 'packages', name, 'src', 'manifest.ts'), 'its manifest broke');
    const listed = cli('workflows');
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toMatch(new RegExp(`^${name}\\s`, 'm'));
    expect(listed.stdout).toMatch(/^par2-rag\s+langgraph\s/m);
    expect(listed.stderr).toMatch(new RegExp(`^multihop: warning: method package @multihop/${name} \\(.*\\) did not load, so its workflows are left out: Error: its manifest broke$`, 'm'));
    const unknown = cli('run', '--workflow', name, ...question);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`multihop: unknown workflow "${name}"`);
    const answered = cli('run', '--workflow', 'single-turn-rag', ...question);
    expect({ status: answered.status, warned: answered.stderr.includes(`@multihop/${name}`) }).toEqual({ status: 0, warned: true });
    expect(answered.stdout).toMatch(/Answer: {3}\S/);
  }, 300_000);
});
