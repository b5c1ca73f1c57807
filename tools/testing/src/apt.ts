import { spawnSync } from 'node:child_process';

/** How long an install waits, in all, for another apt-get or dpkg to let go of its locks. */
const LOCK_WAIT_MS = 15 * 60_000;
const LOCKED = /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory|is another process using it/;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Installs one of Debian's packages with apt-get, as a test's set-up does on a fresh CI machine
 * (as root, else through `sudo -n`). Test suites run side by side (Nx runs several projects at
 * once), so two of them may install at the same moment: apt-get is told to wait for dpkg's lock
 * (`DPkg::Lock::Timeout`), and a run that still finds a lock taken (the package lists' lock of
 * `apt-get update`) is retried, for up to 15 minutes in all. The package lists are refreshed only
 * when the install fails without them. Throws with apt-get's last output when it cannot install.
 */
export function aptInstall(pkg: string, log: (line: string) => void = () => {}): void {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const deadline = Date.now() + LOCK_WAIT_MS;
  const aptGet = (args: string[]) => {
    const full = ['-o', `DPkg::Lock::Timeout=${Math.round(LOCK_WAIT_MS / 1000)}`, ...args];
    const [command, argv] = root ? ['apt-get', full] : ['sudo', ['-n', 'apt-get', ...full]];
    for (;;) {
      const result = spawnSync(command, argv, { encoding: 'utf8', env, timeout: LOCK_WAIT_MS });
      const output = `${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
      if (result.status === 0 || !LOCKED.test(output) || Date.now() > deadline) return { ok: result.status === 0, text: `${command} ${argv.join(' ')} (exit ${result.status}): ${output.slice(-1500)}` };
      log(`apt-get ${args[0]}: another apt-get holds the lock; waiting`);
      sleep(5000);
    }
  };
  const install = () => aptGet(['install', '-y', '--no-install-recommends', pkg]);
  let result = install();
  if (!result.ok) {
    aptGet(['update']);
    result = install();
  }
  if (!result.ok) throw new Error(`could not install Debian's ${pkg}: ${result.text}\nInstall it yourself (apt-get install -y ${pkg})${root ? '' : ', or run the tests as root to have them install it'}.`);
}
