import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicPackages, workspaceRoot } from './workspace';

/** The first cycle in a task graph's dependencies, as the tasks along it, or undefined. */
function findCycle(dependencies: Record<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (task: string, path: string[]): string[] | undefined => {
    if (state.get(task) === 'open') return [...path.slice(path.indexOf(task)), task];
    if (state.get(task) === 'done') return undefined;
    state.set(task, 'open');
    for (const next of dependencies[task] ?? []) {
      const cycle = visit(next, [...path, task]);
      if (cycle) return cycle;
    }
    state.set(task, 'done');
    return undefined;
  };
  for (const task of Object.keys(dependencies)) {
    const cycle = visit(task, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('npm run build (nx run-many -t build)', () => {
  // Nx plans the tasks without running them; a cycle (a package's devDependency that imports it
  // back, as @multihop/testing imports core's types) makes the real command refuse to start.
  it('plans a build of every public package with no cycle among the tasks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-build-graph-'));
    try {
      const file = join(dir, 'tasks.json');
      // Its own workspace data and cache: the running `npm test` (an outer Nx) reads and writes the workspace's.
      const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', FORCE_COLOR: '0', NX_WORKSPACE_DATA_DIRECTORY: join(dir, 'workspace-data'), NX_CACHE_DIRECTORY: join(dir, 'cache') };
      const nx = spawnSync(process.execPath, [join(workspaceRoot, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'run-many', '-t', 'build', `--graph=${file}`], { cwd: workspaceRoot, env, encoding: 'utf8', timeout: 120_000 });
      expect({ status: nx.status, stderr: nx.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
      const { tasks } = JSON.parse(readFileSync(file, 'utf8')) as { tasks: { dependencies: Record<string, string[]> } };
      expect(findCycle(tasks.dependencies)).toBeUndefined();
      const planned = Object.keys(tasks.dependencies);
      expect(planned).toEqual(expect.arrayContaining(publicPackages().map((p) => `${p.name}:build`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('finds a cycle when there is one (the check above can fail)', () => {
    expect(findCycle({ 'a:build': ['b:build'], 'b:build': ['c:build'], 'c:build': ['b:build'] })).toEqual(['b:build', 'c:build', 'b:build']);
    expect(findCycle({ 'a:build': ['b:build'], 'b:build': [] })).toBeUndefined();
  });
});
