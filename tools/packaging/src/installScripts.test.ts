import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSUMER_ALLOW_SCRIPTS } from './consumerProject';
import { allowed, checkAllowScripts, checkWorkspaceAllowScripts, scriptedPackages, workspaceLockfile } from './installScripts';
import { rootManifest, workspacePackages, workspaceRoot } from './workspace';

describe("the root's allowScripts (npm 12 runs no dependency's install script it does not list)", () => {
  it('covers every installed package with install scripts, and lists nothing the lockfile does not have', () => {
    expect(checkWorkspaceAllowScripts()).toEqual([]);
  });

  it('lets better-sqlite3 build its native addon (the SQLite checkpoint store needs it)', () => {
    const version = workspaceLockfile().packages['node_modules/better-sqlite3']!.version!;
    expect(allowed(rootManifest().allowScripts ?? {}, 'better-sqlite3', version)).toBe(true);
  });

  it('names packages without pinning versions (npm 12 matches a pin by the lockfile’s resolved URL, which this lockfile omits)', () => {
    expect(Object.keys(rootManifest().allowScripts ?? {}).filter((key) => key.lastIndexOf('@') > 0)).toEqual([]);
  });

  it('is declared at the root only (npm ignores a workspace package’s)', () => {
    const inWorkspaces = workspacePackages().filter((p) => 'allowScripts' in (p.manifest as object)).map((p) => p.name);
    expect(inWorkspaces).toEqual([]);
  });
});

describe('checkAllowScripts', () => {
  const lock = {
    packages: {
      '': { hasInstallScript: true },
      'node_modules/native': { version: '1.2.3', hasInstallScript: true },
      'node_modules/@scope/tool': { version: '2.0.0', hasInstallScript: true },
      'node_modules/extra': { version: '0.1.0', hasInstallScript: true, optional: true },
      'node_modules/a/node_modules/native': { version: '1.0.0', hasInstallScript: true },
      'node_modules/plain': { version: '5.0.0' },
      'packages/core': { version: '0.1.0', hasInstallScript: true },
      'node_modules/@multihop/core': { link: true, hasInstallScript: true },
    },
  };

  it('finds the installed third-party packages with scripts, each version once', () => {
    expect(scriptedPackages(lock).map((p) => `${p.name}@${p.version}`)).toEqual(['@scope/tool@2.0.0', 'extra@0.1.0', 'native@1.0.0', 'native@1.2.3']);
  });

  it('reads pinned, multi-version and name-only keys, scoped names included; a denial wins', () => {
    expect(allowed({ 'native@1.2.3': true }, 'native', '1.2.3')).toBe(true);
    expect(allowed({ 'native@1.2.3': true }, 'native', '1.2.4')).toBeUndefined();
    expect(allowed({ 'native@1.0.0 || 1.2.3': true }, 'native', '1.0.0')).toBe(true);
    expect(allowed({ '@scope/tool@2.0.0': true }, '@scope/tool', '2.0.0')).toBe(true);
    expect(allowed({ '@scope/tool': false }, '@scope/tool', '9.9.9')).toBe(false);
    expect(allowed({ native: true, 'native@1.2.3': false }, 'native', '1.2.3')).toBe(false);
  });

  it('names each uncovered package and each stranded key; an optional package counts only where installed', () => {
    const allow = { 'native@1.2.3 || 1.0.0': true, '@scope/tool@1.9.0': true, gone: false };
    expect(checkAllowScripts(allow, lock, () => false)).toEqual([
      expect.stringMatching(/^@scope\/tool@2\.0\.0 has install scripts that allowScripts does not cover/),
      expect.stringMatching(/^allowScripts key "@scope\/tool@1\.9\.0" matches no locked package/),
      expect.stringMatching(/^allowScripts key "gone" matches no locked package/),
    ]);
    expect(checkAllowScripts({ 'native@1.2.3 || 1.0.0': true, '@scope/tool': true }, lock, (name) => name === 'extra')).toEqual([
      expect.stringMatching(/^extra@0\.1\.0 has install scripts/),
    ]);
    expect(checkAllowScripts({ 'native@1.2.3 || 1.0.0': true, '@scope/tool': true }, lock, () => false)).toEqual([]);
  });
});

describe("the consumer's allowScripts", () => {
  it.each(['packages/checkpoint/README.md', 'apps/runner/README.md'])('is what %s tells a team to set', (readme) => {
    const text = readFileSync(join(workspaceRoot, readme), 'utf8').replace(/\s+/g, ' ');
    for (const [name, allow] of Object.entries(CONSUMER_ALLOW_SCRIPTS)) expect(text).toContain(`npm pkg set allowScripts.${name}=${allow} --json`);
  });
});
