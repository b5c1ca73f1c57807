import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PromptRegistry } from '@multihop/prompts';
import { findMethodPackages, methodCatalog, methodOfflineHandlers } from './methods';

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
      const pkg = join(dir, 'node_modules', '@multihop', 'broken');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@multihop/broken', multihop: { manifest: './manifest' }, exports: {} }));
      const found = findMethodPackages(join(dir, 'app'));
      expect(found).toEqual([{ name: '@multihop/broken', dir: expect.stringContaining('broken'), manifest: './manifest' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
