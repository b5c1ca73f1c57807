/**
 * Whether process `pid` of this machine is running: signal 0 checks without signalling. A process
 * of another user (EPERM) runs; only "no such process" (ESRCH) is gone. Lock and lease holders use
 * it to take over what a killed process left behind.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
