import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';

// The bin as a shell user meets it, in a child process.
const bin = join(__dirname, '..', 'bin', 'multihop.js');
const env = { ...process.env, MULTIHOP_DATASETS_DIR: sharedDatasetsDir(), LANCEDB_LOG: 'error' };

describe('the multihop bin', () => {
  it('exits quietly when its reader has gone (`multihop workflows | head -1`), with no EPIPE stack', async () => {
    const child = spawn(process.execPath, [bin, 'workflows'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The read end closes before the bin writes its first line, as `head` does once it has enough.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
