import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` of this machine is running: signal 0 checks without signalling. A process
 * of another user (EPERM) runs; only "no such process" (ESRCH) is gone. A process that has exited
 * but that its parent has not yet waited for (a zombie, state Z or X in /proc/<pid>/stat on Linux)
 * still answers signal 0, and is gone too: right after a `kill -9` it holds nothing any more. Lock
 * and lease holders use it to take over what a killed process left behind.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  return !exitedUnreaped(pid);
}

/** True when /proc says `pid` is a zombie or dead (Linux); false where there is no /proc to ask. */
function exitedUnreaped(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) state ...": comm may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}
