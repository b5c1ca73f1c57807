import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, rootManifest, workspaceRoot } from './workspace';

/**
 * npm's `allowScripts` (package.json, project root only): which dependencies may run their install
 * scripts. npm 11.16–11.x only warns about the ones not covered; npm 12 skips their scripts, so a
 * native addon such as better-sqlite3 is left without its binary. Keys are `name` (any version)
 * or `name@1.2.3` (that version; `||` joins several), values true (run) or false (skip).
 *
 * The workspace's keys are names: npm 12 checks a pinned key against the lockfile's `resolved`
 * URL, which this lockfile does not record (npm's `omit-lockfile-registry-resolved`), so there a
 * pinned key matches nothing and blocks the script it was meant to allow (seen with npm 12.2.2).
 */
export type AllowScripts = Record<string, boolean>;

/** A package-lock.json entry, the fields read here. */
interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  optional?: boolean;
  link?: boolean;
  inBundle?: boolean;
}

export interface ScriptedPackage {
  name: string;
  version: string;
  optional: boolean;
}

/** The installed third-party packages of a lockfile that have install scripts (the project itself and workspace links aside). */
export function scriptedPackages(lockfile: { packages: Record<string, LockEntry> }): ScriptedPackage[] {
  const found = new Map<string, ScriptedPackage>();
  for (const [path, entry] of Object.entries(lockfile.packages)) {
    // npm never runs a bundled dependency's scripts, so no key is needed for one.
    if (!entry.hasInstallScript || entry.link || entry.inBundle || !path.includes('node_modules/')) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const key = `${name}@${entry.version}`;
    if (!found.has(key)) found.set(key, { name, version: entry.version ?? '', optional: entry.optional === true });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, 'en', { numeric: true }));
}

/** The decision `allow` makes for one package: true, false, or undefined when no key covers it. */
export function allowed(allow: AllowScripts, name: string, version: string): boolean | undefined {
  let decision: boolean | undefined;
  for (const [key, value] of Object.entries(allow)) {
    const at = key.lastIndexOf('@');
    const keyName = at > 0 ? key.slice(0, at) : key;
    if (keyName !== name) continue;
    if (at > 0 && !key.slice(at + 1).split('||').map((v) => v.trim()).includes(version)) continue;
    // Any key that denies it wins over one that allows it.
    decision = decision === false ? false : value;
  }
  return decision;
}

/**
 * What is wrong with the root's `allowScripts` against the lockfile: a package with install
 * scripts that no key covers (optional ones only when installed here, since another platform or
 * npm version may not install them), and a key that matches no locked package with install
 * scripts (a dependency gone, or a pin stranded by a bump).
 */
export function checkAllowScripts(allow: AllowScripts | undefined, lockfile: { packages: Record<string, LockEntry> }, isInstalled: (name: string) => boolean): string[] {
  const problems: string[] = [];
  const scripted = scriptedPackages(lockfile);
  for (const p of scripted) {
    if (p.optional && !isInstalled(p.name)) continue;
    if (allowed(allow ?? {}, p.name, p.version) === undefined) {
      problems.push(`${p.name}@${p.version} has install scripts that allowScripts does not cover (npm 12 would skip them): review them, then add "${p.name}": true or false`);
    }
  }
  for (const key of Object.keys(allow ?? {})) {
    if (!scripted.some((p) => allowed({ [key]: true }, p.name, p.version) !== undefined)) {
      problems.push(`allowScripts key "${key}" matches no locked package with install scripts: a package no longer installed, or a pin stranded by a version bump`);
    }
  }
  return problems;
}

/** The workspace's package-lock.json, the fields read here. */
export const workspaceLockfile = (): { packages: Record<string, LockEntry> } => readJson(join(workspaceRoot, 'package-lock.json'));

/** The root's check, on the workspace's own package.json, package-lock.json and node_modules. */
export function checkWorkspaceAllowScripts(): string[] {
  return checkAllowScripts(rootManifest().allowScripts, workspaceLockfile(), (name) => existsSync(join(workspaceRoot, 'node_modules', name, 'package.json')));
}
