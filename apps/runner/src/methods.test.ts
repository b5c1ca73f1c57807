import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PromptRegistry } from '@multihop/prompts';
import { findMethodPackages, loadManifest, methodCatalog, methodOfflineHandlers } from './methods';

describe('methods found by their manifests', () => {
  it('finds every method package of the workspace by its "multihop" field, and only those', () => {
    expect(findMethodPackages().map((p) => p.name)).toEqual(expect.arrayContaining(['@multihop/baselines', '@multihop/opera', '@multihop/par2-rag']));
    for (const pkg of findMethodPackages()) expect(pkg.manifest).toBe('./manifest');
    expect(findMethodPackages().map((p) => p.name)).not.toContain('@multihop/core');
  });

  it('lists methods before baselines, with workflow ids unique across methods', () => {
    const families = methodCatalog().methods.map((m) => m.family);
    expect(families.at(-1)).toBe('baseline');
    const ids = methodCatalog().workflows.map((w) => w.entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has, across every installed method, an offline handler for each role of each prompt, and one registry of all prompts', () => {
    const catalog = methodCatalog();
    const registry = new PromptRegistry(catalog.prompts as never);
    const handled = new Set(methodOfflineHandlers().map((h) => h.role));
    const missing = registry.roles().filter((role) => !handled.has(role));
    expect(missing).toEqual([]);
    expect(registry.list().length).toBe(catalog.prompts.length);
  });

  it('names the package and the field when a method package is malformed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-methods-'));
    try {
      const scope = join(dir, 'node_modules', '@multihop');
      // One package names a ./manifest export it does not have; another's manifest module exports no manifest.
      mkdirSync(join(scope, 'broken'), { recursive: true });
      writeFileSync(join(scope, 'broken', 'package.json'), JSON.stringify({ name: '@multihop/broken', multihop: { manifest: './manifest' }, exports: {} }));
      mkdirSync(join(scope, 'empty'), { recursive: true });
      writeFileSync(join(scope, 'empty', 'package.json'), JSON.stringify({ name: '@multihop/empty', multihop: { manifest: './manifest' }, exports: { './manifest': { default: './manifest.js' } } }));
      writeFileSync(join(scope, 'empty', 'manifest.js'), 'module.exports = { notAManifest: true };');
      const found = findMethodPackages(join(dir, 'app'));
      expect(found.map((p) => p.name)).toEqual(['@multihop/broken', '@multihop/empty']);
      expect(() => loadManifest(found[0]!)).toThrow(/broken[/\\]package\.json: field exports\["\.\/manifest"\] is missing, but "multihop" names it/);
      expect(() => loadManifest(found[1]!)).toThrow(/@multihop\/empty: its "\.\/manifest" export has no `manifest`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every method without loading an engine, a store or the router\'s NLP library (what every command pays at start)', () => {
    // A fresh process, as `multihop workflows` is: jest's own module registry would hide what a real require loads.
    const script = `require('./src/methods').methodCatalog();
      const loaded = new Set(Object.keys(require.cache).map((f) => f.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/)?.[1]).filter(Boolean));
      process.stdout.write(JSON.stringify([...loaded]));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ['-r', '@multihop/ts-register', '-e', script], { cwd: join(__dirname, '..'), encoding: 'utf8' })) as string[];
    expect(loaded).toContain('@multihop/core'); // the probe sees packages at all
    const heavy = ['@langchain/core', '@langchain/langgraph', 'xstate', '@lancedb/lancedb', 'apache-arrow', 'better-sqlite3', 'compromise', 'ml-matrix'];
    expect(loaded.filter((name) => heavy.includes(name))).toEqual([]);
  });
});
