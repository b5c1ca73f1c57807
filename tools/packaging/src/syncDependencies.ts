// Rewrites every public package's dependencies, peerDependencies and devDependencies to what
// its sources import (the rules of dependencyRules.ts), leaving every other field and the key
// order as they are:  npm run deps:sync -w @multihop/packaging
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedDeclarations } from './dependencyRules';
import { publicPackages, readJson, workspacePackages } from './workspace';

const all = new Map(workspacePackages().map((p) => [p.name, p]));
let failed = false;
for (const pkg of publicPackages()) {
  const file = join(pkg.dir, 'package.json');
  const json = readJson<Record<string, unknown>>(file);
  const expected = expectedDeclarations(pkg, all);
  for (const problem of expected.problems) {
    failed = true;
    console.error(`${pkg.name}: ${problem}`);
  }
  const before = JSON.stringify(json);
  for (const section of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
    if (Object.keys(expected[section]).length) json[section] = expected[section];
    else delete json[section];
  }
  const meta = json['peerDependenciesMeta'] as Record<string, unknown> | undefined;
  if (meta) {
    for (const name of Object.keys(meta)) if (!(name in expected.peerDependencies)) delete meta[name];
    if (!Object.keys(meta).length) delete json['peerDependenciesMeta'];
  }
  if (JSON.stringify(json) !== before) {
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`${pkg.name}: updated ${file}`);
  }
}
process.exitCode = failed ? 1 : 0;
