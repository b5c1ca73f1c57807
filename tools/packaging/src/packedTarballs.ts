// The consumer test packs every public package once (each prepack a clean build). CI's release dry
// run would build them all a second time through the same prepacks; instead the consumer test
// leaves its tarballs in MULTIHOP_PACKED_OUT, and `restore` unpacks each into its package folder
// so the dry run can skip scripts and still list exactly what the consumer test installed:
//   node -r @multihop/ts-register tools/packaging/src/packedTarballs.ts restore DIR
// It exits 1 (restoring nothing) unless every public package's tarball is there, and the caller
// then runs the dry run with its prepacks as before.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicPackages, readJson, workspaceRoot, type WorkspacePackage } from './workspace';

/** `packed.json` in the directory: which tarball (a file beside it) is which package at which version. */
export interface PackedRecord {
  name: string;
  version: string;
  tarball: string;
}

const RECORD = 'packed.json';

/** Copies the tarballs into `out` and writes the record `restore` reads. */
export function keepPacked(out: string, packed: Array<{ name: string; version: string; tarball: string }>): void {
  mkdirSync(out, { recursive: true });
  const records: PackedRecord[] = packed.map((p) => {
    const file = p.tarball.split(/[\\/]/).pop()!;
    cpSync(p.tarball, join(out, file));
    return { name: p.name, version: p.version, tarball: file };
  });
  writeFileSync(join(out, RECORD), `${JSON.stringify(records, null, 2)}\n`);
}

/**
 * Why the kept tarballs cannot stand for these packages, or null when they can: every package
 * has one, at its current version, and the file is there.
 */
export function missingFrom(dir: string, packages: WorkspacePackage[]): string | null {
  if (!existsSync(join(dir, RECORD))) return `${join(dir, RECORD)} is missing (did the consumer test pack?)`;
  const records = new Map(readJson<PackedRecord[]>(join(dir, RECORD)).map((r) => [r.name, r]));
  for (const pkg of packages) {
    const r = records.get(pkg.name);
    if (!r) return `no tarball of ${pkg.name}`;
    if (r.version !== pkg.manifest.version) return `${pkg.name}'s tarball is ${r.version}, the package ${pkg.manifest.version}`;
    if (!existsSync(join(dir, r.tarball))) return `${join(dir, r.tarball)} is missing`;
    // npm's layout, with the build: a tarball without dist/ would leave the package without code, and nothing rebuilds it.
    const listed = spawnSync('tar', ['-tzf', join(dir, r.tarball)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (listed.status !== 0) return `tar -tzf ${join(dir, r.tarball)}: ${listed.stderr || listed.error}`;
    const entries = listed.stdout.split('\n');
    if (!entries.includes('package/package.json')) return `${pkg.name}'s tarball has no package/package.json`;
    if (!entries.some((e) => e.startsWith('package/dist/'))) return `${pkg.name}'s tarball has no dist/`;
  }
  return null;
}

/**
 * Unpacks each package's tarball into its folder, as its prepack would have left it: `dist/`
 * replaced by the tarball's, other files the tarball has added only where the folder lacks them.
 * Every tarball is unpacked first; no package's `dist/` is touched unless all of them unpacked.
 */
export function restore(dir: string, packages: WorkspacePackage[]): void {
  const records = new Map(readJson<PackedRecord[]>(join(dir, RECORD)).map((r) => [r.name, r]));
  const scratch = mkdtempSync(join(dir, 'unpack-'));
  try {
    const unpacked = packages.map((pkg) => {
      const into = join(scratch, pkg.name.replace('/', '+'));
      mkdirSync(into);
      const tar = spawnSync('tar', ['-xzf', join(dir, records.get(pkg.name)!.tarball), '-C', into], { encoding: 'utf8' });
      if (tar.status !== 0) throw new Error(`tar -xzf of ${pkg.name}'s tarball: ${tar.stderr || tar.error}`);
      if (!existsSync(join(into, 'package', 'dist'))) throw new Error(`${pkg.name}'s tarball unpacked no package/dist/`);
      return { pkg, from: join(into, 'package') };
    });
    for (const { pkg, from } of unpacked) {
      rmSync(join(pkg.dir, 'dist'), { recursive: true, force: true });
      cpSync(from, pkg.dir, { recursive: true, force: false, errorOnExist: false });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [command, dir] = process.argv.slice(2);
  if (command !== 'restore' || !dir) {
    console.error('usage: packedTarballs.ts restore DIR');
    process.exit(2);
  }
  const packages = publicPackages();
  const missing = missingFrom(dir, packages);
  if (missing) {
    console.error(`not restoring the consumer test's builds: ${missing}`);
    process.exit(1);
  }
  try {
    restore(dir, packages);
  } catch (error) {
    console.error(`not restoring the consumer test's builds: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`restored dist/ of ${packages.length} packages from the consumer test's tarballs (${packages.map((p) => p.root).join(', ')}) under ${workspaceRoot}`);
}
