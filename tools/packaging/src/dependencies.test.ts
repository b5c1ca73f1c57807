import { checkDependencies, PEER_FRAMEWORKS } from './dependencyRules';
import { publicPackages, rootManifest, workspacePackages } from './workspace';

const all = new Map(workspacePackages().map((p) => [p.name, p]));

describe.each(publicPackages().map((p) => [p.name, p] as const))('%s package.json', (_name, pkg) => {
  it('declares exactly what its sources import', () => {
    expect(checkDependencies(pkg, all)).toEqual([]);
  });
});

it('keeps every peer framework installed in the workspace (the root declares it)', () => {
  const root = { ...rootManifest().dependencies, ...rootManifest().devDependencies };
  const missing = Object.keys(PEER_FRAMEWORKS).filter((name) => !(name in root));
  expect(missing).toEqual([]);
});
