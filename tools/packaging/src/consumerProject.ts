import { execFileSync, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConcurrencyLimiter } from '@multihop/core';
import { unwantedFiles, type PackReport } from './tarballContents';
import { dependencyOrder, readJson, rootManifest, runtimeDependencies, workspacePackages, workspaceRoot, type PackageManifest, type WorkspacePackage } from './workspace';

/** Where the shared datasets live for a project outside the workspace: `../shared/datasets` beside the workspace root. */
export const sharedDatasetsDir = (): string => process.env['MULTIHOP_DATASETS_DIR'] ?? resolve(workspaceRoot, '..', 'shared', 'datasets');

const quietNpm = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };

/**
 * Native modules the workspace has already built, offered to the consumer's npm install as local
 * prebuilds: the package's own install script still runs and still installs the module, it only
 * finds the binary for this Node ABI, platform and version on disk instead of downloading it (no
 * network here) or compiling it (better-sqlite3: about 110 s of the consumer install on two cores).
 * A consumer that resolves another version finds no matching file and builds as before.
 *
 * The offer is prebuild-install's `local-prebuilds` setting in a `.prebuild-installrc` in `above`, a
 * directory above the consumer project (prebuild-install looks for the file from the module's
 * directory upwards), so the project itself stays as a team would have it. Not
 * `npm_config_<name>_local_prebuilds`: npm 12 warns that it is an unknown npm setting, which a later
 * npm will refuse. Not the rc's environment variable either: `prebuild-install_local-prebuilds` is
 * not a shell name, and the shell npm runs install scripts in drops it.
 * Returns whether a binary was offered.
 */
export function offerLocalPrebuilds(above: string): boolean {
  const installed = join(workspaceRoot, 'node_modules', 'better-sqlite3');
  const binary = 'build/Release/better_sqlite3.node';
  if (!existsSync(join(installed, binary))) return false;
  const { version } = readJson<{ version: string }>(join(installed, 'package.json'));
  // prebuild-install's name for this Node ABI, platform and arch; on musl it has a `musl` suffix, which would only mean compiling as before.
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const dir = join(above, 'prebuilds');
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['czf', join(dir, file), binary], { cwd: installed });
  writeFileSync(join(above, '.prebuild-installrc'), `local-prebuilds=${dir}\n`);
  return true;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const runEnv = (options: RunOptions): NodeJS.ProcessEnv => ({ ...process.env, ...quietNpm, ...options.env });

export function run(command: string, args: string[], options: RunOptions): Run {
  const started = Date.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd: options.cwd,
    env: runEnv(options),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

/** `run`, without blocking the event loop: for commands run side by side. */
export function runAsync(command: string, args: string[], options: RunOptions): Promise<Run> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: runEnv(options), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.once('error', (error) => (clearTimeout(timer), reject(error)));
    child.once('close', (status) => (clearTimeout(timer), resolvePromise({ status, stdout, stderr, ms: Date.now() - started })));
  });
}

export const describeRun = (what: string, r: Run): string => `${what} exited with ${r.status}\n--- stderr\n${r.stderr}\n--- stdout\n${r.stdout}`;

/**
 * A copy of the public packages (package.json, tsconfigs, sources, README, bin) in the same
 * layout as the workspace, with a node_modules that links the workspace's third-party packages
 * and the copies' own `@multihop/*`. Packing there runs each package's real prepack (clean,
 * build) without touching the workspace's dist/ folders, which other tasks may be reading.
 */
export function stagePackages(stage: string, packages: WorkspacePackage[]): Map<string, string> {
  mkdirSync(stage, { recursive: true });
  cpSync(join(workspaceRoot, 'tsconfig.base.json'), join(stage, 'tsconfig.base.json'));
  const dirs = new Map<string, string>();
  for (const pkg of packages) {
    const dir = join(stage, pkg.root);
    cpSync(pkg.dir, dir, { recursive: true, filter: (src) => !/[/\\](node_modules|dist|\.nx)$/.test(src) });
    if (existsSync(join(pkg.dir, 'node_modules'))) symlinkSync(join(pkg.dir, 'node_modules'), join(dir, 'node_modules'), 'dir');
    dirs.set(pkg.name, dir);
  }
  // The runner's prepack bundles the studio's web app (a private project it ships built), so the
  // stage holds its sources too.
  const studio = workspacePackages().find((p) => p.name === '@multihop/studio');
  if (studio && dirs.has('@multihop/runner')) {
    cpSync(studio.dir, join(stage, studio.root), { recursive: true, filter: (src) => !/[/\\](node_modules|dist|\.nx|test)$/.test(src) });
    if (existsSync(join(studio.dir, 'node_modules'))) symlinkSync(join(studio.dir, 'node_modules'), join(stage, studio.root, 'node_modules'), 'dir');
  }
  const modules = join(stage, 'node_modules');
  mkdirSync(join(modules, '@multihop'), { recursive: true });
  for (const entry of readdirSync(join(workspaceRoot, 'node_modules'))) {
    if (entry === '@multihop') continue;
    symlinkSync(join(workspaceRoot, 'node_modules', entry), join(modules, entry), 'dir');
  }
  for (const [name, dir] of dirs) symlinkSync(dir, join(modules, name), 'dir');
  return dirs;
}

export interface Packed extends PackReport {
  tarball: string;
  manifest: PackageManifest;
  /** Paths in the tarball that should not be there (sources, tests, examples). */
  unwanted: string[];
  ms: number;
}

/**
 * `npm pack` of each staged package, `concurrency` at a time, each once the workspace packages it
 * depends on are packed (its prepack builds against their dist/). In dependency order.
 */
export async function packAll(packages: WorkspacePackage[], stagedDirs: Map<string, string>, destination: string, concurrency = 2): Promise<Packed[]> {
  mkdirSync(destination, { recursive: true });
  const ordered = dependencyOrder(packages);
  const limiter = new ConcurrencyLimiter(concurrency);
  const pack = async (pkg: WorkspacePackage): Promise<Packed> => {
    const dir = stagedDirs.get(pkg.name)!;
    const r = await runAsync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: dir });
    if (r.status !== 0) throw new Error(describeRun(`npm pack ${pkg.name}`, r));
    // Lifecycle scripts print their banners on stdout too: the report is the JSON array at the end.
    const json = r.stdout.slice(r.stdout.search(/^\[\s*\{/m));
    const report = (JSON.parse(json) as PackReport[])[0]!;
    const tarball = join(destination, report.filename);
    const manifest = readJson<PackageManifest>(join(dir, 'package.json'));
    return { ...report, tarball, manifest, unwanted: unwantedFiles(report.files), ms: r.ms };
  };
  const packing = new Map<string, Promise<Packed>>();
  for (const pkg of ordered) {
    const before = Object.keys(runtimeDependencies(pkg.manifest)).flatMap((dep) => packing.get(dep) ?? []);
    packing.set(pkg.name, Promise.all(before).then(() => limiter.run(() => pack(pkg))));
  }
  return Promise.all(ordered.map((pkg) => packing.get(pkg.name)!));
}

/**
 * The install scripts @multihop/checkpoint's and @multihop/runner's READMEs tell a team to allow
 * (`npm pkg set allowScripts.better-sqlite3=true --json`).
 */
export const CONSUMER_ALLOW_SCRIPTS: Readonly<Record<string, boolean>> = { 'better-sqlite3': true };

/**
 * Install scripts in the packages' dependencies that the READMEs leave alone, so npm 12 skips
 * them for a team that follows the READMEs: msgpackr-extract, BullMQ's optional native
 * MessagePack speed-up (msgpackr falls back to JavaScript). The consumer project denies them,
 * so its runs check that the packages work without them.
 */
export const CONSUMER_SKIPPED_SCRIPTS: readonly string[] = ['msgpackr-extract'];

/**
 * A fresh npm project that depends on every tarball by file and on nothing in the workspace:
 * third-party packages come from the registry; @huggingface/transformers (an optional
 * dependency of LanceDB whose onnxruntime postinstall downloads from the internet) is
 * overridden with the workspace's empty stand-in, packed as a tarball too.
 */
export function writeConsumerProject(app: string, packed: Packed[], stubTarball: string): void {
  mkdirSync(join(app, 'examples'), { recursive: true });
  const typesNode = rootManifest().devDependencies?.['@types/node'] ?? '^20.19.0';
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'multihop-consumer',
        version: '0.0.0',
        private: true,
        description: 'A project that installs the multihop packages from their tarballs, as a team would from npm.',
        dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`])),
        devDependencies: { '@types/node': typesNode },
        overrides: { '@huggingface/transformers': `file:${stubTarball}` },
        // What the packages' READMEs tell a team to allow for npm 12 (which runs no dependency's
        // install script a project does not allow), and the rest denied, as npm 12 would skip
        // them. The install is strict: a script neither lists fails it, naming the package.
        allowScripts: { ...CONSUMER_ALLOW_SCRIPTS, ...Object.fromEntries(CONSUMER_SKIPPED_SCRIPTS.map((name) => [name, false])) },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          // node16 on a package without "type": "module" emits CommonJS and resolves `exports`
          // (subpaths like @multihop/par2-rag/offline) the way Node does, from the installed .d.ts.
          module: 'node16',
          moduleResolution: 'node16',
          target: 'es2022',
          lib: ['es2023'],
          strict: true,
          noUncheckedIndexedAccess: true,
          esModuleInterop: true,
          skipLibCheck: true,
          types: ['node'],
          rootDir: 'examples',
          outDir: 'build',
        },
        include: ['examples/*.ts'],
      },
      null,
      2,
    )}\n`,
  );
}

/** The installed package.json of a dependency in the consumer project. */
export const installedManifest = (app: string, name: string): PackageManifest => readJson<PackageManifest>(join(app, 'node_modules', name, 'package.json'));

export const tscBin = (): string => join(workspaceRoot, 'node_modules', 'typescript', 'bin', 'tsc');

export const packStub = (destination: string): string => {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination, join(workspaceRoot, 'tools', 'stubs', 'huggingface-transformers-stub')], {
    cwd: destination,
    encoding: 'utf8',
    env: { ...process.env, ...quietNpm },
  });
  return join(destination, (JSON.parse(out) as PackReport[])[0]!.filename);
};

export const fileText = (file: string): string => readFileSync(file, 'utf8');
