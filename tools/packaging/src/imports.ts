import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Relative paths and Node built-ins (`node:fs`, `fs`) name no package. */
export const namesPackage = (specifier: string): boolean =>
  !specifier.startsWith('.') && !specifier.startsWith('/') && !isBuiltin(specifier);

/** Every module specifier a TypeScript file imports, re-exports, requires or imports dynamically (type-only imports included). */
export function moduleSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

export const isTestFile = (file: string): boolean => /\.test\.ts$/.test(file);

function tsFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function jsFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && /\.[cm]?js$/.test(e.name)).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/** Package name → the files (relative to the package folder) that import it, sorted by name. */
function scan(packageDir: string, files: string[]): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  for (const file of files) {
    for (const specifier of moduleSpecifiers(readFileSync(file, 'utf8'))) {
      if (!namesPackage(specifier)) continue;
      const name = packageNameOf(specifier);
      const rel = relative(packageDir, file);
      packages.set(name, [...new Set([...(packages.get(name) ?? []), rel])]);
    }
  }
  return new Map([...packages].sort(([a], [b]) => a.localeCompare(b)));
}

/** What the shipped code imports: `src/**\/*.ts` without the tests. */
export const productionImports = (packageDir: string): Map<string, string[]> =>
  scan(packageDir, tsFiles(join(packageDir, 'src')).filter((f) => !isTestFile(f)));

/** What the shipped `bin/` scripts require. */
export const binImports = (packageDir: string): Map<string, string[]> => scan(packageDir, jsFiles(join(packageDir, 'bin')));

/** What only the tests and their helpers import: `*.test.ts` under src/, everything under test/, and the examples. */
export const testImports = (packageDir: string): Map<string, string[]> =>
  scan(packageDir, [
    ...tsFiles(join(packageDir, 'src')).filter(isTestFile),
    ...tsFiles(join(packageDir, 'test')),
    ...tsFiles(join(packageDir, 'examples')),
  ]);
