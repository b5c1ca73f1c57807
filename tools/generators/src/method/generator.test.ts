import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The generator as Nx calls it, on an in-memory tree: what it writes, and what it refuses.
const methodGenerator = require('./generator.js') as (tree: MemoryTree, options: Record<string, unknown>) => () => void;

class MemoryTree {
  readonly files = new Map<string, string>();
  exists(path: string): boolean {
    return this.files.has(path);
  }
  write(path: string, content: string): void {
    this.files.set(path, content);
  }
}

describe('the method generator', () => {
  it('writes one folder: manifest, engine file, agent, prompt, offline handler, README and tests, with every placeholder filled', () => {
    const tree = new MemoryTree();
    methodGenerator(tree, { name: 'mao-arag', engine: 'xstate', family: 'MAO-ARAG' });
    const paths = [...tree.files.keys()].sort();
    expect(paths.every((p) => p.startsWith('packages/mao-arag/'))).toBe(true);
    for (const file of ['package.json', 'README.md', 'src/manifest.ts', 'src/machine.ts', 'src/workflows.ts', 'src/agents/Answerer.ts', 'src/prompts.ts', 'src/offline/index.ts', 'src/manifest.test.ts', 'src/mao-arag.e2e.test.ts']) {
      expect(paths).toContain(`packages/mao-arag/${file}`);
    }
    for (const [path, content] of tree.files) expect({ path, leftover: /__[A-Za-z]+__/.exec(content)?.[0] }).toEqual({ path, leftover: undefined });
    const pkg = JSON.parse(tree.files.get('packages/mao-arag/package.json')!);
    expect(pkg).toMatchObject({ name: '@multihop/mao-arag', multihop: { manifest: './manifest', offline: './offline' } });
    expect(pkg.peerDependencies).toHaveProperty('xstate');
    expect(tree.files.get('packages/mao-arag/src/manifest.ts')).toContain("family: 'MAO-ARAG'");
  });

  it('writes a LangGraph graph for --engine langgraph, with LangGraph as the peer', () => {
    const tree = new MemoryTree();
    methodGenerator(tree, { name: 'hera' });
    expect(tree.exists('packages/hera/src/graph.ts')).toBe(true);
    expect(tree.exists('packages/hera/src/machine.ts')).toBe(false);
    expect(JSON.parse(tree.files.get('packages/hera/package.json')!).peerDependencies).toHaveProperty('@langchain/langgraph');
  });

  it('refuses a name that is not a package folder name, an unknown engine, and an existing method', () => {
    expect(() => methodGenerator(new MemoryTree(), { name: 'MAO_ARAG' })).toThrow(/lower-case letters and digits separated by single dashes/);
    expect(() => methodGenerator(new MemoryTree(), { name: 'x', engine: 'temporal' })).toThrow(/--engine must be langgraph or xstate/);
    const tree = new MemoryTree();
    tree.write('packages/opera/package.json', '{}');
    expect(() => methodGenerator(tree, { name: 'opera' })).toThrow(/packages\/opera already exists/);
  });

  it('is registered for `nx g @multihop/tools:method`', () => {
    const generators = JSON.parse(readFileSync(join(__dirname, '..', '..', 'generators.json'), 'utf8'));
    expect(generators.generators.method.factory).toBe('./src/method/generator.js');
  });
});
