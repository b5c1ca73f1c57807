import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { moduleSpecifiers, namesPackage, packageNameOf } from './imports';
import { readJson, workspacePackages, workspaceRoot, type PackageManifest } from './workspace';

/** The packages a README's `## Install` section tells a team to install: its `npm install a b c` line. */
export function readmeInstallLine(readme: string): string[] | undefined {
  const section = readme.split(/^## Install\n/m)[1]?.split(/^## /m)[0];
  const line = section?.split('\n').find((l) => l.startsWith('npm install '));
  return line?.slice('npm install '.length).trim().split(/\s+/).map((spec) => spec.replace(/(?<=.)@[^/]*$/, ''));
}

/** The packages a script imports (Node's built-ins and relative files left out), sorted. */
export const importedPackages = (file: string): string[] =>
  [...new Set(moduleSpecifiers(readFileSync(file, 'utf8')).filter(namesPackage).map(packageNameOf))].sort();

/**
 * What `npm install <names>` puts in node_modules: each name, and through their manifests every
 * dependency and every peer dependency not marked optional (npm 7 on installs those; an optional
 * peer is installed only when asked for). The workspace's packages are read from their folders,
 * any other from the workspace's node_modules.
 */
export function installClosure(names: readonly string[]): Set<string> {
  const workspace = new Map(workspacePackages().map((p) => [p.name, p.manifest]));
  const manifestOf = (name: string): PackageManifest | undefined => {
    const file = join(workspaceRoot, 'node_modules', name, 'package.json');
    return workspace.get(name) ?? (existsSync(file) ? readJson<PackageManifest>(file) : undefined);
  };
  const installed = new Set<string>();
  const visit = (name: string): void => {
    if (installed.has(name)) return;
    installed.add(name);
    const m = manifestOf(name);
    for (const dep of Object.keys(m?.dependencies ?? {})) visit(dep);
    for (const peer of Object.keys(m?.peerDependencies ?? {})) if (!m?.peerDependenciesMeta?.[peer]?.optional) visit(peer);
  };
  names.forEach(visit);
  return installed;
}
