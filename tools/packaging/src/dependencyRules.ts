import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { binImports, productionImports, testImports } from './imports';
import { readJson, rootManifest, workspaceRoot, type DependencyMap, type PackageManifest, type WorkspacePackage } from './workspace';

/**
 * Frameworks a consumer brings once for the whole app (one zod for its schemas, one LangChain
 * core for messages and callbacks, one LangGraph, one XState): peers with a caret range, never
 * dependencies. Each range admits the version CONVENTIONS.md pins, and what the frameworks ask of
 * one another (LangGraph 1.7 peers zod ^3.25.32 || ^4.2.0: a zod range from 4.1 would let npm
 * refuse the tree with ERESOLVE).
 */
export const PEER_FRAMEWORKS: Record<string, string> = {
  '@langchain/core': '^1.4.0',
  '@langchain/langgraph': '^1.7.3',
  xstate: '^5.33.3',
  zod: '^4.2.0',
};

/** Packages that find method packages at run time (by their `multihop` field) instead of importing them. */
export const METHOD_HOSTS = ['@multihop/runner'];

export interface Declarations {
  dependencies: DependencyMap;
  peerDependencies: DependencyMap;
  devDependencies: DependencyMap;
}

type Section = keyof Declarations;

const installedVersion = (name: string): string | undefined => {
  const file = join(workspaceRoot, 'node_modules', name, 'package.json');
  return existsSync(file) ? readJson<PackageManifest>(file).version : undefined;
};

const isExact = (range: string | undefined): range is string => range !== undefined && /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range);

const sorted = (map: DependencyMap): DependencyMap => Object.fromEntries(Object.entries(map).sort(([a], [b]) => a.localeCompare(b)));

/**
 * What one public package should declare, from what it imports:
 * - what non-test `src/**\/*.ts` and `bin/` import is a dependency or a peer: the frameworks of
 *   PEER_FRAMEWORKS are peers with their caret range, other third-party packages are
 *   dependencies pinned to one exact version, `@multihop/*` packages are `^<their version>`
 *   (a peer if already declared as one, like a method's optional @multihop/offline-model);
 * - a method host (the runner) also depends on every public method package, unimported;
 * - what only tests, test helpers and examples import (and a bin's workspace-only private
 *   helper) is a devDependency, as is every optional peer, so the workspace installs it.
 * `problems` lists what cannot be fixed by rewriting package.json (a private package imported
 * by shipped code).
 */
export function expectedDeclarations(pkg: WorkspacePackage, all: Map<string, WorkspacePackage>): Declarations & { problems: string[] } {
  const current = pkg.manifest;
  const problems: string[] = [];
  const out: Declarations = { dependencies: {}, peerDependencies: {}, devDependencies: {} };
  const runtime = new Map(productionImports(pkg.dir));
  const dev = new Map(testImports(pkg.dir));
  for (const [name, files] of binImports(pkg.dir)) (all.get(name)?.manifest.private ? dev : runtime).set(name, files);
  if (METHOD_HOSTS.includes(pkg.name)) {
    for (const method of all.values()) if (method.manifest.multihop?.manifest && !method.manifest.private) runtime.set(method.name, ['(method package)']);
  }
  runtime.delete(pkg.name);
  dev.delete(pkg.name);

  for (const [name, files] of runtime) {
    const internal = all.get(name);
    if (internal) {
      if (internal.manifest.private) problems.push(`${files.join(', ')} import ${name}, which is private (never published): an install from npm cannot resolve it`);
      const section: Section = current.peerDependencies?.[name] !== undefined ? 'peerDependencies' : 'dependencies';
      out[section][name] = `^${internal.manifest.version}`;
    } else if (name in PEER_FRAMEWORKS) {
      out.peerDependencies[name] = PEER_FRAMEWORKS[name]!;
    } else {
      const existing = current.dependencies?.[name];
      const version = isExact(existing) ? existing : installedVersion(name);
      if (!version) problems.push(`${files.join(', ')} import ${name}, which is not installed in the workspace`);
      else out.dependencies[name] = version;
    }
  }

  const rootRanges = { ...rootManifest().dependencies, ...rootManifest().devDependencies };
  const optionalPeers = Object.keys(out.peerDependencies).filter((name) => current.peerDependenciesMeta?.[name]?.optional);
  for (const name of [...dev.keys(), ...optionalPeers]) {
    if (name in out.dependencies || (name in out.peerDependencies && !optionalPeers.includes(name))) continue;
    const internal = all.get(name);
    if (internal) out.devDependencies[name] = internal.manifest.private ? '*' : `^${internal.manifest.version}`;
    else out.devDependencies[name] = rootRanges[name] ?? current.devDependencies?.[name] ?? `^${installedVersion(name) ?? '0.0.0'}`;
  }
  return { dependencies: sorted(out.dependencies), peerDependencies: sorted(out.peerDependencies), devDependencies: sorted(out.devDependencies), problems };
}

const where = (map: DependencyMap | undefined, name: string): string | undefined => map?.[name];

/** How one public package's declarations differ from `expectedDeclarations`, one sentence per difference. */
export function checkDependencies(pkg: WorkspacePackage, all: Map<string, WorkspacePackage>): string[] {
  const expected = expectedDeclarations(pkg, all);
  const findings = [...expected.problems];
  const m = pkg.manifest;
  const imported = new Map([...productionImports(pkg.dir), ...binImports(pkg.dir)]);
  const tests = testImports(pkg.dir);
  for (const section of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
    const actual = m[section] ?? {};
    for (const [name, range] of Object.entries(expected[section])) {
      const otherSection = (['dependencies', 'peerDependencies', 'devDependencies'] as const).find((s) => s !== section && where(m[s], name) !== undefined);
      if (actual[name] === range) continue;
      if (actual[name] !== undefined) findings.push(`${section}: ${name} is "${actual[name]}", expected "${range}"`);
      else if (otherSection) findings.push(`${name} belongs in ${section} ("${range}"), not in ${otherSection}`);
      else {
        const files = section === 'devDependencies' ? tests.get(name) : imported.get(name);
        findings.push(`${files ? `${files.join(', ')} import${files.length === 1 ? 's' : ''} ${name}` : `${name} is expected`}: declare it in ${section} ("${range}")`);
      }
    }
    for (const name of Object.keys(actual)) {
      if (expected[section][name] !== undefined) continue;
      const elsewhere = (['dependencies', 'peerDependencies', 'devDependencies'] as const).some((s) => expected[s][name] !== undefined);
      if (!elsewhere) findings.push(`${section}: ${name} is declared but ${section === 'devDependencies' ? 'no test, example or optional peer needs it' : 'no non-test file under src/ (or bin/) imports it'}`);
    }
  }
  for (const name of Object.keys(m.peerDependenciesMeta ?? {})) {
    if (expected.peerDependencies[name] === undefined) findings.push(`peerDependenciesMeta names ${name}, which is not a peer`);
  }
  return [...new Set(findings)];
}
