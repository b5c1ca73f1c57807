import { execFileSync } from 'node:child_process';
import { workspaceRoot, type WorkspacePackage } from './workspace';

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackReport {
  name: string;
  version: string;
  /** The tarball's size in bytes. */
  size: number;
  unpackedSize: number;
  filename: string;
  files: PackedFile[];
}

/** npm's word for one workspace package, for `-w`. */
const workspaceArgs = (packages: WorkspacePackage[]): string[] => packages.flatMap((p) => ['-w', p.root]);

/** npm-packlist's view: what `npm pack` would put in each tarball, without building (`--ignore-scripts`). */
export function dryRunPack(packages: WorkspacePackage[]): PackReport[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', ...workspaceArgs(packages)], {
    cwd: workspaceRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
  return JSON.parse(out) as PackReport[];
}

/** Files a tarball must not carry: TypeScript sources, tests and their helpers, examples, build info. */
export function unwantedFiles(files: PackedFile[]): string[] {
  return files
    .map((f) => f.path)
    .filter((p) => /^(src|test|examples)\//.test(p) || /\.test\.(ts|js|d\.ts)(\.map)?$/.test(p) || /(^|\/)(jest\.config|tsconfig)[^/]*$/.test(p) || /\.tsbuildinfo$/.test(p) || (/\.ts$/.test(p) && !p.endsWith('.d.ts')));
}
