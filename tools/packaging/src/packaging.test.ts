import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { importedPackages, readmeInstallLine } from './installLine';
import { dryRunPack, unwantedFiles } from './tarballContents';
import { publicPackages, rootManifest, workspacePackages, workspaceRoot, type WorkspacePackage } from './workspace';

const packages = publicPackages();
const table = packages.map((p) => [p.name, p] as const);

/** Published packages that have no README (and so no usage example) yet. Shrinks, never grows. */
const WITHOUT_README: string[] = [];

const INTEGRATION_TEST = /\.(int|e2e)\.test\.ts$/;

function parseConfig(file: string): ts.ParsedCommandLine {
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(file), undefined, file);
}

const libCompilerOptions = (pkg: WorkspacePackage): ts.CompilerOptions => parseConfig(join(pkg.dir, 'tsconfig.lib.json')).options;

interface TypeCheckProgram {
  config: string;
  options: ts.CompilerOptions;
  files: Set<string>;
}

/** The tsconfig files a command line runs (`tsc -p X`), relative to the directory it runs in. */
const tscConfigs = (dir: string, command: string): string[] => [...command.matchAll(/\btsc -p (\S+)/g)].map((m) => join(dir, m[1]!));

let programs: TypeCheckProgram[] | undefined;

/**
 * Every program the workspace's `typecheck` targets run, read from the targets themselves: the
 * root project's (package.json `nx.targets.typecheck`) and any package's own `typecheck` script
 * (the studio's browser code).
 */
function typeCheckPrograms(): TypeCheckProgram[] {
  programs ??= [
    ...(rootManifest().nx?.targets?.typecheck?.options?.commands ?? []).flatMap((c) => tscConfigs(workspaceRoot, c)),
    ...workspacePackages().flatMap((p) => tscConfigs(p.dir, p.manifest.scripts?.['typecheck'] ?? '')),
  ].map((config) => {
    const parsed = parseConfig(config);
    return { config, options: parsed.options, files: new Set(parsed.fileNames) };
  });
  return programs;
}

/** A package's TypeScript files under src/ and test/ that no typecheck program checks. */
const notTypeChecked = (pkg: WorkspacePackage): string[] =>
  [...sourceFiles(join(pkg.dir, 'src')), ...sourceFiles(join(pkg.dir, 'test'))].filter((f) => !typeCheckPrograms().some((p) => p.files.has(f)));

function sourceFiles(dir: string): string[] {
  return (ts.sys.readDirectory(dir, ['.ts', '.tsx']) ?? []).filter((f) => !f.endsWith('.d.ts'));
}

it('declares the Node.js versions the workspace supports (every public package repeats them)', () => {
  expect(rootManifest().engines).toEqual({ node: '>=20' });
});

it('type-checks the whole workspace in the root project and the studio, not one program per package', () => {
  expect(typeCheckPrograms().map((p) => relative(workspaceRoot, p.config))).toEqual([
    'tsconfig.json',
    'tsconfig.examples.json',
    'apps/studio/tsconfig.json',
    'apps/studio/tsconfig.spec.json',
    'apps/studio/test/tsconfig.json',
  ]);
});

it("type-checks the private workspace packages' sources and tests (the studio's among them)", () => {
  const privates = workspacePackages().filter((p) => p.manifest.private === true);
  expect(privates.flatMap((p) => notTypeChecked(p))).toEqual([]);
});

describe.each(table)('%s', (_name, pkg) => {
  const m = pkg.manifest;

  it('ships dist/ and its README (and data/ when it has some, e.g. a trained router file), built by prepack', () => {
    const data = existsSync(join(pkg.dir, 'data')) ? ['data'] : [];
    expect(m.files).toEqual(m.bin ? ['bin', 'dist', ...data, 'README.md'] : ['dist', ...data, 'README.md']);
    expect(m.scripts?.['build']).toBe('tsc -p tsconfig.lib.json');
    expect(m.scripts?.['prepack']).toMatch(/npm run build$/);
  });

  it("declares the Node.js versions it supports, the workspace's", () => {
    expect(m.engines).toEqual(rootManifest().engines);
  });

  it('carries the licence text its package.json names (npm packs a LICENSE beside package.json whatever `files` says)', () => {
    expect(m.license).toBe(rootManifest().license);
    const own = join(pkg.dir, 'LICENSE');
    expect({ file: existsSync(own) ? readFileSync(own, 'utf8') : 'missing' }).toEqual({ file: readFileSync(join(workspaceRoot, 'LICENSE'), 'utf8') });
  });

  it('exports each entry from src/ in the workspace and from dist/ when installed', () => {
    expect(Object.keys(m.exports ?? {})).toContain('.');
    for (const [subpath, entry] of Object.entries(m.exports ?? {})) {
      expect(typeof entry).toBe('object');
      const conditions = entry as Record<string, string>;
      expect(Object.keys(conditions)).toEqual(['@multihop/source', 'types', 'default']); // order matters: first match wins
      const source = conditions['@multihop/source']!;
      expect(existsSync(join(pkg.dir, source))).toBe(true);
      const built = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
      expect({ subpath, types: conditions['types'], default: conditions['default'] }).toEqual({ subpath, types: `${built}.d.ts`, default: `${built}.js` });
    }
    expect(m.main).toBe((m.exports?.['.'] as Record<string, string>)['default']);
    expect(m.types).toBe((m.exports?.['.'] as Record<string, string>)['types']);
  });

  it('builds maps that carry their sources (the tarball has no src/) and no declaration maps', () => {
    const options = libCompilerOptions(pkg);
    expect({ sourceMap: options.sourceMap, inlineSources: options.inlineSources, declarationMap: options.declarationMap ?? false, declaration: options.declaration, outDir: options.outDir }).toEqual({
      sourceMap: true,
      inlineSources: true,
      declarationMap: false,
      declaration: true,
      outDir: join(pkg.dir, 'dist'),
    });
  });

  it("has its sources and tests in the workspace's type check", () => {
    expect(notTypeChecked(pkg)).toEqual([]);
  });

  it('keeps integration tests out of `test` and runs them in `test:int`', () => {
    const slow = sourceFiles(join(pkg.dir, 'src')).filter((f) => INTEGRATION_TEST.test(f));
    expect(m.scripts?.['test']).toContain(`--testPathIgnorePatterns '\\.(int|e2e)\\.test\\.ts$'`);
    if (slow.length) expect(m.scripts?.['test:int']).toBe(`jest --testPathPatterns '\\.(int|e2e)\\.test\\.ts$'`);
  });

  it('has a README whose usage example is examples/usage.ts, in the workspace type check of examples', () => {
    if (!existsSync(join(pkg.dir, 'README.md'))) {
      expect(WITHOUT_README).toContain(pkg.name);
      return;
    }
    expect(readFileSync(join(pkg.dir, 'README.md'), 'utf8')).toContain('## Usage\n');
    expect(existsSync(join(pkg.dir, 'examples', 'usage.ts'))).toBe(true);
    // Checked once, as a user's script is: Node's types, no test runner's.
    const usage = join(pkg.dir, 'examples', 'usage.ts');
    expect(typeCheckPrograms().filter((p) => p.files.has(usage)).map((p) => p.options.types)).toEqual([['node']]);
  });

  it("has an Install line that names this package and every package its usage example imports", () => {
    if (!existsSync(join(pkg.dir, 'README.md'))) return;
    const line = readmeInstallLine(readFileSync(join(pkg.dir, 'README.md'), 'utf8')) ?? [];
    expect(line).toContain(pkg.name);
    // Named, not only installed along: a strict package manager (pnpm) lets a project import only
    // its own dependencies (an optional peer, such as the offline model, is not installed at all unless named).
    const imported = importedPackages(join(pkg.dir, 'examples', 'usage.ts'));
    expect(imported.filter((name) => !line.includes(name))).toEqual([]);
  });

  // A method that calls no model itself (the router: its candidates' methods answer) has no offline handlers.
  if (m.multihop && !m.multihop.offline) {
    it('is a method package that calls no model: a ./manifest export, no ./offline, no offline-model dependency', () => {
      expect(m.multihop).toEqual({ manifest: './manifest' });
      expect(Object.keys(m.exports ?? {})).toContain('./manifest');
      expect(Object.keys(m.exports ?? {})).not.toContain('./offline');
      expect(m.dependencies?.['@multihop/offline-model']).toBeUndefined();
    });
  } else if (m.multihop) {
    it('is a method package: ./manifest and ./offline exports, the offline model an optional peer', () => {
      expect(m.multihop).toEqual({ manifest: './manifest', offline: './offline' });
      expect(Object.keys(m.exports ?? {})).toEqual(expect.arrayContaining(['./manifest', './offline']));
      expect(m.peerDependencies?.['@multihop/offline-model']).toBeDefined();
      expect(m.peerDependenciesMeta?.['@multihop/offline-model']).toEqual({ optional: true });
      expect(m.dependencies?.['@multihop/offline-model']).toBeUndefined();
    });
  }
});

it('packs no sources, tests or examples (npm pack --dry-run of every public package)', () => {
  const reports = dryRunPack(packages);
  expect(reports.map((r) => r.name).sort()).toEqual(packages.map((p) => p.name).sort());
  const unwanted = Object.fromEntries(reports.map((r) => [r.name, unwantedFiles(r.files)] as const).filter(([, files]) => files.length > 0));
  expect(unwanted).toEqual({});
  for (const report of reports) {
    expect(report.files.map((f) => f.path)).toContain('package.json');
    expect({ name: report.name, files: report.files.map((f) => f.path) }).toEqual({ name: report.name, files: expect.arrayContaining(['LICENSE']) });
  }
});
