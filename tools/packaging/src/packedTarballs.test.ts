import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepPacked, missingFrom, restore } from './packedTarballs';
import type { WorkspacePackage } from './workspace';

// Packages and tarballs laid out as npm packs them (a top folder `package/`), made with tar here.
describe("CI's restore of the consumer test's builds into the packages", () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'multihop-packed-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const workspacePackage = (name: string): WorkspacePackage => {
    const dir = join(root, 'ws', name);
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.js'), 'stale build');
    writeFileSync(join(dir, 'README.md'), 'the workspace README');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `@multihop/${name}`, version: '1.0.0' }));
    return { name: `@multihop/${name}`, dir, root: `ws/${name}`, manifest: { name: `@multihop/${name}`, version: '1.0.0' } };
  };
  let made = 0;
  const tarball = (name: string, options: { top?: string; dist?: boolean } = {}) => {
    const top = options.top ?? 'package';
    const from = join(root, `src-${name}-${made++}`);
    const src = join(from, top);
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'package.json'), JSON.stringify({ name: `@multihop/${name}`, version: '1.0.0' }));
    writeFileSync(join(src, 'README.md'), 'the packed README');
    if (options.dist !== false) {
      mkdirSync(join(src, 'dist', 'studio-app'), { recursive: true });
      writeFileSync(join(src, 'dist', 'index.js'), `packed build of ${name}`);
      writeFileSync(join(src, 'dist', 'studio-app', 'index.html'), '<html></html>');
    }
    const file = join(root, `${name}-1.0.0.tgz`);
    execFileSync('tar', ['-czf', file, '-C', from, top]);
    return { name: `@multihop/${name}`, version: '1.0.0', tarball: file };
  };

  it("replaces each package's dist/ with its tarball's, and adds nothing over the package's own files", () => {
    const packages = [workspacePackage('a'), workspacePackage('b')];
    const kept = join(root, 'kept');
    keepPacked(kept, [tarball('a'), tarball('b')]);
    expect(missingFrom(kept, packages)).toBeNull();
    restore(kept, packages);
    for (const [pkg, name] of [[packages[0]!, 'a'], [packages[1]!, 'b']] as const) {
      expect(readFileSync(join(pkg.dir, 'dist', 'index.js'), 'utf8')).toBe(`packed build of ${name}`);
      expect(readFileSync(join(pkg.dir, 'dist', 'studio-app', 'index.html'), 'utf8')).toBe('<html></html>');
      expect(readFileSync(join(pkg.dir, 'README.md'), 'utf8')).toBe('the workspace README');
    }
  });

  it('refuses, touching no package, a set with a tarball missing, of another version, without dist/ or not in npm\'s layout', () => {
    const packages = [workspacePackage('a'), workspacePackage('b')];
    const kept = join(root, 'kept');
    keepPacked(kept, [tarball('a')]);
    expect(missingFrom(kept, packages)).toBe('no tarball of @multihop/b');
    keepPacked(kept, [tarball('a'), { ...tarball('b'), version: '0.9.0' }]);
    expect(missingFrom(kept, packages)).toBe("@multihop/b's tarball is 0.9.0, the package 1.0.0");
    keepPacked(kept, [tarball('a'), tarball('b', { dist: false })]);
    expect(missingFrom(kept, packages)).toBe("@multihop/b's tarball has no dist/");
    keepPacked(kept, [tarball('a'), tarball('b', { top: 'pkg' })]);
    expect(missingFrom(kept, packages)).toBe("@multihop/b's tarball has no package/package.json");
    // Restored anyway, it fails before any package's dist/ is replaced.
    expect(() => restore(kept, packages)).toThrow("@multihop/b's tarball unpacked no package/dist/");
    for (const pkg of packages) expect(readFileSync(join(pkg.dir, 'dist', 'index.js'), 'utf8')).toBe('stale build');
  });
});
