import { spawnSync } from 'node:child_process';
import { processAlive } from './process';

it('processAlive: this process runs; a child that has exited does not', () => {
  expect(processAlive(process.pid)).toBe(true);
  const exited = spawnSync(process.execPath, ['-e', '']).pid!;
  expect(processAlive(exited)).toBe(false);
});
