import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { processAlive } from './process';

it('processAlive: this process runs; a child that has exited does not', () => {
  expect(processAlive(process.pid)).toBe(true);
  const exited = spawnSync(process.execPath, ['-e', '']).pid!;
  expect(processAlive(exited)).toBe(false);
});

// A holder killed with -9 whose parent has not reaped it yet is a zombie: signal 0 still reaches it,
// and a lease or lock it held must be taken over at once all the same.
(existsSync('/proc/self/stat') ? it : it.skip)('processAlive: a killed child its parent has not waited for yet (a zombie) does not run', async () => {
  const child = spawn('sh', ['-c', 'sleep 30'], { stdio: 'ignore' });
  const pid = child.pid!;
  expect(processAlive(pid)).toBe(true);
  // Node reaps a child when its SIGCHLD is handled on the event loop: killed from a synchronous
  // stretch, the child is a zombie until this function yields.
  process.kill(pid, 'SIGKILL');
  const until = Date.now() + 5000;
  while (Date.now() < until && !/\) [ZX] /.test(statOf(pid))) {
    /* wait, without yielding, for the kernel to mark it */
  }
  expect(statOf(pid)).toMatch(/\) [ZX] /);
  expect(processAlive(pid)).toBe(false);
  await new Promise((resolve) => child.once('exit', resolve));
});

function statOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}
