import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOfflineProvider } from '@multihop/offline-model';
import { PromptRegistry } from '@multihop/prompts';
import { z } from 'zod';
import { buildWorkflow, findMethodPackages, loadManifest, loadMethods, loadOfflineHandlers, loadOrder, methodCatalog, methodOfflineHandlers, rolesCalled } from './methods';

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

  it('tells which roles workflows may call: their methods\' prompts\' roles, a router\'s candidates\' too, and nothing ruled out for a workflow it does not know', () => {
    const catalog = methodCatalog();
    const roles = (ids: string[]) => rolesCalled(ids.map((id) => ({ id })));
    const par2 = [...new Set(catalog.get('par2-rag').method.prompts.map((p) => p.role))].sort();
    expect([...roles(['par2-rag'])!].sort()).toEqual(par2);
    expect(par2).toEqual(expect.arrayContaining(['par2-planner', 'reranker']));
    expect(roles(['par2-rag'])!.has('opera-plan')).toBe(false);
    // A router calls no prompt of its own: what its candidates call.
    expect([...rolesCalled([{ id: 'router', candidates: ['par2-rag', 'opera'] }])!].sort()).toEqual([...new Set([...par2, ...roles(['opera'])!])].sort());
    expect(roles(['par2-rag', 'not-installed'])).toBeUndefined();
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

  it("finds a method package of any scope that the project depends on, and loads it beside the runner's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-methods-'));
    try {
      const install = (name: string, fields: object, files: Record<string, string> = {}) => {
        const root = join(dir, 'node_modules', ...name.split('/'));
        mkdirSync(root, { recursive: true });
        writeFileSync(join(root, 'package.json'), JSON.stringify({ name, ...fields }));
        for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
      };
      const method = (id: string) => ({
        fields: { multihop: { manifest: './manifest' }, exports: { './manifest': { default: './manifest.js' } } },
        files: { 'manifest.js': `module.exports.manifest = { id: '${id}', family: 'method', title: '${id}', paper: 'none', prompts: [{ id: '${id}.answer', role: '${id}-answerer' }], workflows: [{ id: '${id}', engine: 'langgraph', title: '${id}', create() { throw new Error('not built in this test'); } }] };` },
      });
      install('@acme/our-method', method('acme-method').fields, method('acme-method').files);
      install('unscoped-method', method('unscoped-method').fields, method('unscoped-method').files);
      // Exports as an ES module package writes them: an `import` condition alone, or nested under `node`.
      const esm = method('esm-method');
      install('@acme/esm-method', { ...esm.fields, exports: { './manifest': { node: { import: './manifest.js' } } } }, esm.files);
      install('left-pad', { main: 'index.js' });
      // Installed (a dependency's dependency, say) but not the project's own: not looked at.
      install('@acme/not-declared', method('not-declared').fields, method('not-declared').files);
      // A dual package lists `import` first: the runner loads its CommonJS file, as Node's require does.
      const dual = method('dual-method');
      install('@acme/dual-method', { ...dual.fields, exports: { './manifest': { import: './esm.mjs', require: './manifest.js' } } }, { ...dual.files, 'esm.mjs': "throw new Error('the ES module file was loaded');" });
      install('@acme/no-condition', { ...method('no-condition').fields, exports: { './manifest': { browser: './manifest.js' } } }, method('no-condition').files);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { '@acme/our-method': '^1.0.0', '@acme/esm-method': '^1.0.0', '@acme/dual-method': '^1.0.0', '@acme/no-condition': '^1.0.0', 'left-pad': '^1.0.0' }, devDependencies: { 'unscoped-method': '^1.0.0', 'missing-dep': '^1.0.0' } }));
      const found = findMethodPackages(join(dir, 'app'));
      expect(found.map((p) => p.name)).toEqual(['@acme/dual-method', '@acme/esm-method', '@acme/no-condition', '@acme/our-method', 'unscoped-method']);
      // A runner installed elsewhere (globally, or through npx) looks from the working directory too:
      // by default, from its own folder (the workspace's methods) and from the project it runs in.
      const cwd = process.cwd();
      mkdirSync(join(dir, 'app'));
      process.chdir(join(dir, 'app'));
      try {
        expect(findMethodPackages().map((p) => p.name)).toEqual(expect.arrayContaining(['@acme/our-method', '@acme/esm-method', '@multihop/baselines']));
      } finally {
        process.chdir(cwd);
      }
      const { catalog, problems } = loadMethods([...findMethodPackages(), ...found]);
      // An entry with no condition the runner loads with is named as such, not as missing.
      expect(problems).toEqual([expect.stringMatching(/^method package @acme\/no-condition .*field exports\["\.\/manifest"\] gives no file for the conditions the runner loads with \(require, node, default, import\); it has \{"browser":"\.\/manifest\.js"\}$/)]);
      expect(catalog.find('acme-method')?.method.id).toBe('acme-method');
      expect(catalog.find('esm-method')?.method.id).toBe('esm-method');
      expect(catalog.find('dual-method')?.method.id).toBe('dual-method');
      expect(catalog.find('unscoped-method')?.method.id).toBe('unscoped-method');
      expect(catalog.find('not-declared')).toBeUndefined();
      // A workflow its package cannot build: the package and its folder are named, not "a bug in multihop".
      const acme = found.find((p) => p.name === '@acme/our-method')!;
      const entry = catalog.get('acme-method').entry;
      expect(() => buildWorkflow(entry, 'acme-method', {}, { workflowIds: () => [], workflow: () => { throw new Error('none'); } }, acme)).toThrow(
        `workflow acme-method of method package @acme/our-method (${acme.dir}) could not be built: Error: not built in this test`,
      );
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

  describe('a method package that does not load', () => {
    let dir: string;
    const pkg = (name: string, exports: Record<string, string>, files: Record<string, string>, offline = false): void => {
      const root = join(dir, 'node_modules', '@multihop', name);
      mkdirSync(root, { recursive: true });
      const fields = { manifest: './manifest', ...(offline ? { offline: './offline' } : {}) };
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: `@multihop/${name}`, multihop: fields, exports: Object.fromEntries(Object.entries(exports).map(([k, v]) => [k, { default: v }])) }));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
    };
    // A plain manifest object (what defineMethod returns), one workflow and one prompt of the given ids.
    const manifest = (id: string, workflow: string) =>
      `module.exports.manifest = { id: '${id}', family: 'method', title: '${id}', paper: 'none', prompts: [{ id: '${id}.answer', role: '${id}-answerer' }], workflows: [{ id: '${workflow}', engine: 'langgraph', title: '${workflow}', create() { throw new Error('not built in this test'); } }] };`;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'multihop-methods-'));
      // Installed without its build; a module that throws as it loads; a workflow id the baselines already have;
      // a good manifest whose ./offline export throws; a good one whose ./offline is fine.
      pkg('aaa-unbuilt', { './manifest': './dist/manifest.js' }, {});
      pkg('bbb-throws', { './manifest': './manifest.js' }, { 'manifest.js': "throw new TypeError('cannot read x of undefined\\n    at stack line');" });
      pkg('ccc-clash', { './manifest': './manifest.js' }, { 'manifest.js': manifest('copycat', 'direct') });
      pkg('ddd-offline', { './manifest': './manifest.js', './offline': './offline.js' }, { 'manifest.js': manifest('ddd', 'ddd-answer'), 'offline.js': "require('a-module-not-installed');" }, true);
      pkg('eee-works', { './manifest': './manifest.js' }, { 'manifest.js': manifest('eee', 'eee-answer') });
      // Its prompts include the judge's role, which the offline model answers itself: a broken ./offline must not take it over.
      pkg('fff-judges', { './manifest': './manifest.js', './offline': './offline.js' }, { 'manifest.js': manifest('fff', 'fff-answer').replace("role: 'fff-answerer'", "role: 'judge'"), 'offline.js': "throw new Error('fff offline broke');" }, true);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is left out, named with why, and every other method still loads', () => {
      const extra = findMethodPackages(join(dir, 'app'));
      expect(extra.map((p) => p.name)).toEqual(['@multihop/aaa-unbuilt', '@multihop/bbb-throws', '@multihop/ccc-clash', '@multihop/ddd-offline', '@multihop/eee-works', '@multihop/fff-judges']);
      const { catalog, problems } = loadMethods([...findMethodPackages(), ...extra]);
      const installed = methodCatalog().workflows.map((w) => w.entry.id);
      expect(catalog.workflows.map((w) => w.entry.id).sort()).toEqual([...installed, 'ddd-answer', 'eee-answer', 'fff-answer'].sort());
      expect(catalog.find('direct')?.method.id).toBe('baselines');
      expect(problems).toEqual([
        expect.stringMatching(/^method package @multihop\/aaa-unbuilt \(.*aaa-unbuilt\) did not load, so its workflows are left out: @multihop\/aaa-unbuilt: .*dist[/\\]manifest\.js does not exist/),
        expect.stringMatching(/^method package @multihop\/bbb-throws .* left out: TypeError: cannot read x of undefined$/),
        expect.stringMatching(/^method package @multihop\/ccc-clash .* left out: workflow id "direct" is offered by both baselines and copycat$/),
      ]);
    });

    it("reusing a workflow id of a method the runner ships is left out, not that method, whatever its name sorts as", () => {
      // Named to sort before @multihop/baselines, it offers `direct` too.
      pkg('aaa-copycat', { './manifest': './manifest.js' }, { 'manifest.js': manifest('aaa-copycat', 'direct') });
      const copycat = findMethodPackages(join(dir, 'app')).filter((p) => p.name === '@multihop/aaa-copycat');
      const { catalog, problems } = loadMethods(loadOrder([...copycat, ...findMethodPackages()]));
      expect(catalog.find('direct')?.method.id).toBe('baselines');
      expect(problems).toEqual([expect.stringMatching(/^method package @multihop\/aaa-copycat .* left out: workflow id "direct" is offered by both baselines and aaa-copycat$/)]);
      rmSync(join(dir, 'node_modules', '@multihop', 'aaa-copycat'), { recursive: true });
    });

    it('whose offline handlers do not load fails its own roles\' calls naming it, and the other roles answer', async () => {
      const extra = findMethodPackages(join(dir, 'app'));
      const { loaded } = loadMethods([...findMethodPackages(), ...extra]);
      const { handlers, problems } = loadOfflineHandlers(loaded);
      expect(problems).toEqual([
        expect.stringMatching(/^the offline handlers of method package @multihop\/ddd-offline .* cannot run on the offline model: Error \[MODULE_NOT_FOUND\]: Cannot find module 'a-module-not-installed'/),
        expect.stringMatching(/^the offline handlers of method package @multihop\/fff-judges .*: Error: fff offline broke$/),
      ]);
      // Every installed method's roles are still answered by their own handlers.
      const roles = new Set(handlers.map((h) => h.role));
      for (const handler of methodOfflineHandlers()) expect(roles).toContain(handler.role);
      const provider = createOfflineProvider({ handlers });
      const request = (role: string, promptId: string, vars: Record<string, unknown>) => ({ role, promptId, vars, messages: [], schema: z.unknown(), jsonSchema: {}, attempt: 0 });
      await expect(provider.generate(request('ddd-answerer', 'ddd.answer', {}))).rejects.toMatchObject({ code: 'OFFLINE_ROLE', message: problems[0] });
      const judged = await provider.generate(request('judge', 'judge.correctness', { question: 'Who?', gold: 'Paris', prediction: 'Paris' }));
      expect(judged.text).toMatch(/yes|true|correct/i);

      // A package listing a prompt another method owns (the same prompt: the catalogue allows it),
      // whose ./offline breaks: the method that loaded answers that role, and the offline model starts.
      pkg('hhh-shares', { './manifest': './manifest.js', './offline': './offline.js' }, { 'manifest.js': manifest('hhh', 'hhh-answer'), 'offline.js': "throw new Error('hhh offline broke');" }, true);
      const shares = findMethodPackages(join(dir, 'app')).find((p) => p.name === '@multihop/hhh-shares')!;
      const sharing = { pkg: shares, manifest: { ...loadManifest(shares), prompts: [{ id: 'baseline.rag-answer', role: 'rag-answer' }] } as never };
      const withShared = loadOfflineHandlers([...loaded, sharing]);
      expect(withShared.problems.at(-1)).toMatch(/^the offline handlers of method package @multihop\/hhh-shares .*: Error: hhh offline broke$/);
      const answering = createOfflineProvider({ handlers: withShared.handlers });
      const rag = await answering.generate(request('rag-answer', 'baseline.rag-answer', { question: 'Who directed Jaws?', passages: [{ id: 'p', title: 'Jaws', text: 'Jaws was directed by Steven Spielberg.' }] }));
      expect(rag.text).not.toBe('');
    });

  });
});
