import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, MethodCatalog, type MethodManifest } from '@multihop/core';
import type { OfflineHandler } from '@multihop/offline-model';

/** A package that declares itself a method: `"multihop": { "manifest": "./manifest", "offline": "./offline" }`. */
export interface MethodPackage {
  name: string;
  dir: string;
  manifest: string;
  offline?: string;
}

interface PackageJson {
  name?: string;
  workspaces?: string[] | { packages?: string[] };
  exports?: Record<string, Record<string, string> | string>;
  multihop?: { manifest?: string; offline?: string };
}

const readJson = (file: string): PackageJson | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
};

/**
 * Where method packages are looked for: every `node_modules/@multihop` above this file (an npm
 * install of the runner and any method package installed beside it), and, inside a workspace,
 * the workspace's own package folders (a method folder just created by the generator, before
 * any `npm install` has linked it).
 */
function candidateDirs(from: string): string[] {
  const dirs: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    const scope = join(dir, 'node_modules', '@multihop');
    if (existsSync(scope)) for (const name of readdirSync(scope)) dirs.push(join(scope, name));
    const pkg = readJson(join(dir, 'package.json'));
    const globs = Array.isArray(pkg?.workspaces) ? pkg.workspaces : (pkg?.workspaces?.packages ?? []);
    for (const glob of globs) {
      // Workspace globs here are `folder/*`; anything fancier is left to node_modules.
      const base = glob.endsWith('/*') ? join(dir, glob.slice(0, -2)) : undefined;
      if (base && existsSync(base)) for (const name of readdirSync(base)) dirs.push(join(base, name));
    }
    if (dirname(dir) === dir) break;
  }
  return dirs;
}

/** Every method package visible from `from`, each once (by name; the first found wins), sorted by name. */
export function findMethodPackages(from: string = __dirname): MethodPackage[] {
  const found = new Map<string, MethodPackage>();
  const seenDirs = new Set<string>();
  for (const dir of candidateDirs(from)) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    if (seenDirs.has(real)) continue;
    seenDirs.add(real);
    const pkg = readJson(join(real, 'package.json'));
    if (!pkg?.name || !pkg.multihop?.manifest || found.has(pkg.name)) continue;
    found.set(pkg.name, { name: pkg.name, dir: real, manifest: pkg.multihop.manifest, ...(pkg.multihop.offline ? { offline: pkg.multihop.offline } : {}) });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

// Inside the workspace the runner runs from its TypeScript sources (under ts-register or jest):
// then method packages load from theirs too; an installed runner runs dist/ and loads dist/.
const fromSource = __filename.endsWith('.ts');

/** Loads a package's export subpath (`./manifest`) by its file, so a package not yet linked into node_modules loads too. */
function loadExport(pkg: MethodPackage, subpath: string): Record<string, unknown> {
  const json = readJson(join(pkg.dir, 'package.json'));
  const entry = json?.exports?.[subpath];
  const target = typeof entry === 'string' ? entry : fromSource && entry?.['@multihop/source'] ? entry['@multihop/source'] : (entry?.['default'] ?? entry?.['require']);
  if (!target) throw new ConfigError(`${join(pkg.dir, 'package.json')}: field exports["${subpath}"] is missing, but "multihop" names it`);
  const file = resolve(pkg.dir, target);
  if (!existsSync(file)) {
    throw new ConfigError(`${pkg.name}: ${file} does not exist (exports["${subpath}"])${fromSource ? '' : '; is the package built?'}`);
  }
  return require(file) as Record<string, unknown>;
}

/** A method package's manifest; a clear error names the package, its package.json field or the missing export. */
export function loadManifest(pkg: MethodPackage): MethodManifest {
  const manifest = loadExport(pkg, pkg.manifest)['manifest'] as MethodManifest | undefined;
  if (!manifest || typeof manifest !== 'object' || !Array.isArray(manifest.workflows)) {
    throw new ConfigError(`${pkg.name}: its "${pkg.manifest}" export has no \`manifest\` (export const manifest = defineMethod({...}))`);
  }
  return manifest;
}

let catalog: MethodCatalog | undefined;
let packages: MethodPackage[] | undefined;

/** Every installed method's manifest in one catalogue: methods first, then the baselines. */
export function methodCatalog(): MethodCatalog {
  if (!catalog) {
    packages = findMethodPackages();
    const manifests = packages.map(loadManifest);
    manifests.sort((a, b) => Number(a.family === 'baseline') - Number(b.family === 'baseline'));
    catalog = new MethodCatalog(manifests);
  }
  return catalog;
}

/** The offline model's handlers for every installed method's roles (from each `./offline` export). */
export function methodOfflineHandlers(): OfflineHandler[] {
  methodCatalog();
  return (packages ?? []).flatMap((pkg) => {
    if (!pkg.offline) return [];
    const handlers = loadExport(pkg, pkg.offline)['offlineHandlers'];
    if (!Array.isArray(handlers)) throw new ConfigError(`${pkg.name}: its "${pkg.offline}" export has no \`offlineHandlers\` list`);
    return handlers as OfflineHandler[];
  });
}
