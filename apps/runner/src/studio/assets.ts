import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '@multihop/core';

/**
 * Where the studio's built web app is: `MULTIHOP_STUDIO_DIR`; else the copy an installed runner
 * ships (`dist/studio-app/`, put there by its prepack); else, in the workspace, `apps/studio/dist`.
 */
export function studioCandidates(): { shipped: string; workspaceApp: string } {
  // This file is src/studio/assets.ts in the workspace and dist/studio/assets.js when built.
  const runnerRoot = resolve(__dirname, '..', '..');
  return { shipped: join(runnerRoot, 'dist', 'studio-app'), workspaceApp: resolve(runnerRoot, '..', 'studio') };
}

/** The studio's web app, built: the directory holding index.html and assets/. */
export function studioAssets(options: { log?: (line: string) => void; build?: boolean } = {}): string {
  const fromEnv = process.env['MULTIHOP_STUDIO_DIR'];
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'index.html'))) throw new ConfigError(`MULTIHOP_STUDIO_DIR=${fromEnv} holds no index.html (a built studio: npx nx build @multihop/studio)`);
    return fromEnv;
  }
  const { shipped, workspaceApp } = studioCandidates();
  if (existsSync(join(workspaceApp, 'vite.config.ts'))) {
    const dist = join(workspaceApp, 'dist');
    // In the workspace the web app is built on first use, and again when its sources are newer.
    if (options.build !== false && (!existsSync(join(dist, 'index.html')) || newestSource(workspaceApp) > statSync(join(dist, 'index.html')).mtimeMs)) {
      options.log?.('studio: building the web app (vite build, a few seconds; once per change of apps/studio)');
      // vite's exports do not list its bin; its package.json is exported, and the bin sits beside it.
      const vite = join(dirname(createRequire(join(workspaceApp, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
      const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
        cwd: workspaceApp,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new ConfigError(`studio: vite build in ${workspaceApp} failed:\n${built.stderr || built.stdout}`);
    }
    if (existsSync(join(dist, 'index.html'))) return dist;
  }
  if (existsSync(join(shipped, 'index.html'))) return shipped;
  throw new ConfigError(`the studio's web app is not built here (looked in ${shipped} and ${join(workspaceApp, 'dist')}); build it with npx nx build @multihop/studio`);
}

/** The newest of what the page is built from: its sources, its index.html and its vite config (a change to any would serve a stale page). */
export function newestSource(workspaceApp: string): number {
  const files = ['index.html', 'vite.config.ts', 'package.json'].map((f) => join(workspaceApp, f));
  return Math.max(newest(join(workspaceApp, 'src')), ...files.filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs));
}

function newest(dir: string): number {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
