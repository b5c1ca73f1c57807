import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@multihop/core';
import { resolveDatasetsDir } from './resolveDatasetsDir';

describe('resolveDatasetsDir', () => {
  it('finds shared/datasets beside an ancestor of the working directory', async () => {
    const root = await mkdtemp(join(tmpdir(), 'multihop-resolve-'));
    await mkdir(join(root, 'shared', 'datasets'), { recursive: true });
    await mkdir(join(root, 'main', 'packages', 'x'), { recursive: true });
    expect(resolveDatasetsDir({ from: join(root, 'main', 'packages', 'x'), env: {} })).toBe(join(root, 'shared', 'datasets'));
  });

  it('prefers MULTIHOP_DATASETS_DIR', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'multihop-env-'));
    expect(resolveDatasetsDir({ from: '/', env: { MULTIHOP_DATASETS_DIR: dir } })).toBe(dir);
  });

  it('names every path it tried when nothing is found', async () => {
    const root = await mkdtemp(join(tmpdir(), 'multihop-none-'));
    let error: unknown;
    try {
      // Bounded at the temp root: another process may well have made a shared/datasets in the system temp dir.
      resolveDatasetsDir({ from: join(root, 'a'), env: {}, stopAt: root });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(join(root, 'a', 'shared', 'datasets'));
    expect((error as Error).message).toContain(join(root, 'shared', 'datasets'));
    expect((error as Error).message).toContain('MULTIHOP_DATASETS_DIR');
  });

  it('rejects a MULTIHOP_DATASETS_DIR that does not exist', () => {
    expect(() => resolveDatasetsDir({ env: { MULTIHOP_DATASETS_DIR: '/nonexistent/multihop' } })).toThrow(/MULTIHOP_DATASETS_DIR/);
  });
});
