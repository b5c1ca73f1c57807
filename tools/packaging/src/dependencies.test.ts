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

/** Whether `version` (x.y.z) satisfies a range of caret terms joined by `||` (the form the frameworks' peer ranges take). */
function satisfiesCaret(version: string, range: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return range.split('||').some((term) => {
    const m = /^\s*\^(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(term);
    if (!m) return false;
    const [a, b, c] = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
    return major === a && (minor > b || (minor === b && patch >= c));
  });
}

it('gives each peer framework a range whose lowest version the other frameworks accept (a lower one lets npm refuse the tree)', () => {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const refused: string[] = [];
  for (const framework of Object.keys(PEER_FRAMEWORKS)) {
    const peers = (JSON.parse(readFileSync(require.resolve(`${framework}/package.json`), 'utf8')) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};
    for (const [peer, theirs] of Object.entries(peers)) {
      const ours = PEER_FRAMEWORKS[peer];
      if (!ours) continue;
      const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(ours)?.[1];
      if (!lowest || !satisfiesCaret(lowest, theirs)) refused.push(`${peer} ${ours}: ${framework} peers ${peer} "${theirs}"`);
    }
  }
  expect(refused).toEqual([]);
  // The check itself: LangGraph 1.7's zod range refuses the 4.1 this project once declared.
  expect(satisfiesCaret('4.1.12', '^3.25.32 || ^4.2.0')).toBe(false);
  expect(satisfiesCaret('4.2.0', '^3.25.32 || ^4.2.0')).toBe(true);
});
