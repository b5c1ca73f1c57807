import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The monorepo's root: the folder whose package.json lists the workspaces. */
export const workspaceRoot = resolve(__dirname, '../../..');

export type DependencyMap = Record<string, string>;

export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  main?: string;
  types?: string;
  bin?: Record<string, string> | string;
  files?: string[];
  scripts?: Record<string, string>;
  exports?: Record<string, Record<string, string> | string>;
  multihop?: { manifest?: string; offline?: string };
  dependencies?: DependencyMap;
  peerDependencies?: DependencyMap;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: DependencyMap;
  overrides?: Record<string, string>;
  workspaces?: string[];
  engines?: Record<string, string>;
  /** The root's: which dependencies' install scripts npm runs (see installScripts.ts). */
  allowScripts?: Record<string, boolean>;
  /** The root's Nx project: its typecheck target runs the workspace's type-check programs. */
  nx?: { targets?: { typecheck?: { options?: { commands?: string[] } } } };
}

export interface WorkspacePackage {
  name: string;
  /** Absolute path of the package folder. */
  dir: string;
  /** Path from the workspace root, e.g. `packages/core`. */
  root: string;
  manifest: PackageManifest;
}

export const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

export const rootManifest = (): PackageManifest => readJson<PackageManifest>(join(workspaceRoot, 'package.json'));

/** Every workspace package (the root's `workspaces` globs are all `folder/*`), sorted by name. */
export function workspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const glob of rootManifest().workspaces ?? []) {
    if (!glob.endsWith('/*')) throw new Error(`workspace glob ${glob}: only folder/* globs are supported here`);
    const base = glob.slice(0, -2);
    for (const entry of readdirSync(join(workspaceRoot, base), { withFileTypes: true })) {
      const dir = join(workspaceRoot, base, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
      const manifest = readJson<PackageManifest>(join(dir, 'package.json'));
      found.push({ name: manifest.name, dir, root: `${base}/${entry.name}`, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The packages published to npm: every workspace package not marked `"private": true`. */
export const publicPackages = (): WorkspacePackage[] => workspacePackages().filter((p) => p.manifest.private !== true);

/** Runtime dependencies as an installer sees them: dependencies and peer dependencies. */
export const runtimeDependencies = (manifest: PackageManifest): DependencyMap => ({
  ...manifest.peerDependencies,
  ...manifest.dependencies,
});

/**
 * The packages in an order where each comes after every workspace package it depends on
 * (dependencies and peers), so building one at a time always finds its dependencies' `dist/`.
 */
export function dependencyOrder(packages: WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const ordered: WorkspacePackage[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (pkg: WorkspacePackage, path: string[]): void => {
    if (state.get(pkg.name) === 'done') return;
    if (state.get(pkg.name) === 'visiting') throw new Error(`dependency cycle: ${[...path, pkg.name].join(' -> ')}`);
    state.set(pkg.name, 'visiting');
    for (const dep of Object.keys(runtimeDependencies(pkg.manifest)).sort()) {
      const target = byName.get(dep);
      if (target) visit(target, [...path, pkg.name]);
    }
    state.set(pkg.name, 'done');
    ordered.push(pkg);
  };
  for (const pkg of packages) visit(pkg, []);
  return ordered;
}
