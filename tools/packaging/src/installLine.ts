import { readFileSync } from 'node:fs';
import { moduleSpecifiers, namesPackage, packageNameOf } from './imports';

/** The packages a README's `## Install` section tells a team to install: its `npm install a b c` line. */
export function readmeInstallLine(readme: string): string[] | undefined {
  const section = readme.split(/^## Install\n/m)[1]?.split(/^## /m)[0];
  const line = section?.split('\n').find((l) => l.startsWith('npm install '));
  return line?.slice('npm install '.length).trim().split(/\s+/).map((spec) => spec.replace(/(?<=.)@[^/]*$/, ''));
}

/** The packages a script imports (Node's built-ins and relative files left out), sorted. */
export const importedPackages = (file: string): string[] =>
  [...new Set(moduleSpecifiers(readFileSync(file, 'utf8')).filter(namesPackage).map(packageNameOf))].sort();
