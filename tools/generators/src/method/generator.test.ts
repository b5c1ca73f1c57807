import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The generator as Nx calls it, on an in-memory tree: what it writes, and what it refuses.
type KnownMethod = { package: string; method: string; workflows: string[] };
const methodGenerator = require('./generator.js') as ((tree: MemoryTree, options: Record<string, unknown>) => () => void) & {
  workspaceMethods(root: string): { methods: KnownMethod[]; problems: string[] };
  collision(id: string, methods: KnownMethod[], packageNames: string[]): string | undefined;
};

const workspace = join(__dirname, '..', '..', '..', '..');
const RUNNER = 'apps/runner/package.json';

class MemoryTree {
  readonly files = new Map<string, string>();
  constructor(readonly root?: string) {}
  exists(path: string): boolean {
    return this.files.has(path);
  }
  read(path: string): string | null {
    return this.files.get(path) ?? null;
  }
  write(path: string, content: string): void {
    this.files.set(path, content);
  }
  children(dir: string): string[] {
    const prefix = `${dir}/`;
    return [...new Set([...this.files.keys()].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split('/')[0]!))];
  }
}

/** A tree over the real workspace (its root, for the ids of existing methods) holding its root and runner package.json. */
function workspaceTree(): MemoryTree {
  const tree = new MemoryTree(workspace);
  for (const file of ['package.json', RUNNER]) tree.write(file, readFileSync(join(workspace, file), 'utf8'));
  return tree;
}

/** The generator's final message, as printed. */
function messageOf(done: () => void): string {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  try {
    done();
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}

describe('the method generator', () => {
  it('writes one folder: manifest, engine file, agent, prompt, offline handler, README and tests, with every placeholder filled', () => {
    const tree = workspaceTree();
    methodGenerator(tree, { name: 'mao-arag-two', engine: 'xstate', family: 'MAO-ARAG' });
    const paths = [...tree.files.keys()].filter((p) => p !== RUNNER && p !== 'package.json').sort();
    expect(paths.every((p) => p.startsWith('packages/mao-arag-two/'))).toBe(true);
    for (const file of ['package.json', 'README.md', 'src/manifest.ts', 'src/machine.ts', 'src/workflows.ts', 'src/agents/Answerer.ts', 'src/prompts.ts', 'src/offline/index.ts', 'src/manifest.test.ts', 'src/mao-arag-two.e2e.test.ts']) {
      expect(paths).toContain(`packages/mao-arag-two/${file}`);
    }
    for (const [path, content] of tree.files) expect({ path, leftover: /__[A-Za-z]+__/.exec(content)?.[0] }).toEqual({ path, leftover: undefined });
    const pkg = JSON.parse(tree.files.get('packages/mao-arag-two/package.json')!);
    expect(pkg).toMatchObject({ name: '@multihop/mao-arag-two', version: '0.1.0', multihop: { manifest: './manifest', offline: './offline' } });
    expect(pkg.peerDependencies).toHaveProperty('xstate');
    // In the order `npm run deps:sync` writes, so it has nothing to rewrite in a fresh method.
    expect(Object.keys(pkg.peerDependencies)).toEqual(['@multihop/offline-model', 'xstate', 'zod']);
    expect(tree.files.get('packages/mao-arag-two/src/manifest.ts')).toContain("family: 'MAO-ARAG'");
  });

  it('writes a family and paper with quotes and backslashes into valid TypeScript and JSON, as given', () => {
    const ts = require('typescript') as typeof import('typescript');
    const family = "O'Self";
    const paper = 'Press et al.\'s "Self-Ask" (2023), \\ and more';
    const tree = workspaceTree();
    methodGenerator(tree, { name: 'quote-test', family, paper });
    for (const [path, content] of tree.files) {
      if (!path.startsWith('packages/quote-test/') || !path.endsWith('.ts')) continue;
      const { diagnostics } = ts.transpileModule(content, { reportDiagnostics: true, fileName: path });
      expect({ path, errors: (diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')) }).toEqual({ path, errors: [] });
    }
    expect(JSON.parse(tree.files.get('packages/quote-test/package.json')!).description).toContain(paper);
    // The constants hold the text as given.
    const variants = ts.transpileModule(tree.files.get('packages/quote-test/src/variants.ts')!, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
    const exported: Record<string, string> = {};
    new Function('exports', variants)(exported);
    expect(exported['QUOTE_TEST_PAPER']).toBe(paper);
    expect(exported['QUOTE_TEST_TITLE']).toBe(`${family} (retrieve, then answer)`);
    expect(tree.files.get('packages/quote-test/src/manifest.ts')).toContain("family: 'O\\'Self'");
  });

  it('adds the one dependency line the runner needs to apps/runner/package.json, keeping its keys sorted and every other byte', () => {
    const tree = workspaceTree();
    const before = tree.files.get(RUNNER)!;
    methodGenerator(tree, { name: 'hera-two' });
    const after = tree.files.get(RUNNER)!;
    const added = after.split('\n').filter((line) => !before.split('\n').includes(line));
    expect(added).toEqual(['    "@multihop/hera-two": "^0.1.0",']);
    expect(after.split('\n').filter((line) => line !== added[0])).toEqual(before.split('\n'));
    const deps = Object.keys(JSON.parse(after).dependencies);
    expect(deps).toEqual([...deps].sort((a, b) => a.localeCompare(b)));
    expect(deps.indexOf('@multihop/hera-two')).toBe(deps.indexOf('@multihop/hera') + 1);
  });

  it('says what it wrote outside the folder, to run npm install before the tests, the checks after, and how to remove the method', () => {
    const message = messageOf(methodGenerator(workspaceTree(), { name: 'self-ask' }));
    expect(message).toContain('apps/runner/package.json: added "@multihop/self-ask": "^0.1.0" to dependencies');
    expect(message).toMatch(/npm install .*before them/);
    expect(message.indexOf('npm install')).toBeLessThan(message.indexOf('npx nx test @multihop/self-ask'));
    expect(message).toContain('npx nx test @multihop/packaging');
    expect(message).toContain('delete packages/self-ask/ and the "@multihop/self-ask" line of apps/runner/package.json, then `npm install`');
    expect(message).toContain('tools/generators/README.md');
  });

  it('writes a LangGraph graph for --engine langgraph, with LangGraph as the peer', () => {
    const tree = workspaceTree();
    methodGenerator(tree, { name: 'hera-lite' });
    expect(tree.exists('packages/hera-lite/src/graph.ts')).toBe(true);
    expect(tree.exists('packages/hera-lite/src/machine.ts')).toBe(false);
    expect(JSON.parse(tree.files.get('packages/hera-lite/package.json')!).peerDependencies).toHaveProperty('@langchain/langgraph');
  });

  it('refuses a name that is not a package folder name, an unknown engine, and an existing method', () => {
    expect(() => methodGenerator(new MemoryTree(), { name: 'MAO_ARAG' })).toThrow(/lower-case letters and digits separated by single dashes/);
    expect(() => methodGenerator(new MemoryTree(), { name: 'x', engine: 'temporal' })).toThrow(/--engine must be langgraph or xstate/);
    const tree = new MemoryTree();
    tree.write('packages/opera/package.json', '{}');
    expect(() => methodGenerator(tree, { name: 'opera' })).toThrow(/packages\/opera already exists/);
  });

  it('refuses the id of an existing workflow, of an existing method and of another workspace package, and writes nothing then', () => {
    const cases: Array<[string, RegExp]> = [
      ['ircot', /"ircot" is already a workflow id of @multihop\/baselines \(method "baselines"\); choose another name/],
      ['hera-no-library', /"hera-no-library" is already a workflow id of @multihop\/hera/],
      ['router', /"router" is already the method id of @multihop\/router/],
      ['runner', /@multihop\/runner is already a package of this workspace/],
    ];
    for (const [name, message] of cases) {
      const tree = workspaceTree();
      const before = new Map(tree.files);
      expect(() => methodGenerator(tree, { name })).toThrow(message);
      expect(tree.files).toEqual(before);
    }
  });

  it('knows every workflow id `multihop workflows` lists and every method id, and refuses each one that is a valid name', () => {
    const listed = JSON.parse(
      execFileSync(process.execPath, ['apps/runner/bin/multihop.js', 'workflows', '--json'], { cwd: workspace, encoding: 'utf8', env: { ...process.env, MULTIHOP_FROM_SOURCE: '1' } }),
    ) as Array<{ id: string }>;
    const known = methodGenerator.workspaceMethods(workspace);
    expect(known.problems).toEqual([]);
    expect(known.methods.flatMap((m) => m.workflows).sort()).toEqual(listed.map((w) => w.id).sort());
    const ids = [...listed.map((w) => w.id), ...known.methods.map((m) => m.method)].filter((id) => /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id));
    expect(ids).toEqual(expect.arrayContaining(['ircot', 'react', 'direct', 'baselines', 'par2-coverage-anchor']));
    for (const id of ids) expect({ id, refused: methodGenerator.collision(id, known.methods, []) !== undefined }).toEqual({ id, refused: true });
    expect(methodGenerator.collision('self-ask', known.methods, [])).toBeUndefined();
  });

  it('is registered for `nx g @multihop/tools:method`', () => {
    const generators = JSON.parse(readFileSync(join(__dirname, '..', '..', 'generators.json'), 'utf8'));
    expect(generators.generators.method.factory).toBe('./src/method/generator.js');
  });
});
