import { spawnSync } from 'node:child_process';

/** How long an install waits, in all, for another apt-get or dpkg to let go of its locks. */
const LOCK_WAIT_MS = 15 * 60_000;
/** How long one apt-get run may take once it has the lock (download, unpack, configure). */
const RUN_MS = 15 * 60_000;
/** What apt prints when another process holds a lock (apt-pkg's GetLock); not a permission failure. */
const LOCKED = /Could not get lock/;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * What dpkg says of a package: `installed`, `not-installed`, or a state in between
 * (`unpacked`, `half-configured`, ...: another apt-get is installing it right now); undefined
 * where there is no dpkg.
 */
export function debianPackageStatus(pkg: string): string | undefined {
  const result = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  if (result.error) return undefined;
  return result.status === 0 ? result.stdout.trim() || 'not-installed' : 'not-installed';
}

/**
 * True when a binary the set-up found can be used as it is: dpkg is not in the middle of
 * installing its package (a binary from elsewhere, unknown to dpkg, is used as it is).
 */
export function settledPackage(pkg: string): boolean {
  return !IN_PROGRESS.has(debianPackageStatus(pkg) ?? 'installed');
}

/** dpkg's states between an install's start and its end. */
const IN_PROGRESS = new Set(['half-installed', 'unpacked', 'half-configured', 'triggers-awaited', 'triggers-pending']);

/**
 * A binary of one of Debian's packages, as a test's set-up needs it: what `find` finds, when dpkg
 * is not midway through installing the package; else (missing, or being installed by a suite
 * beside this one) the package installed or waited for with `aptInstall`, and `find` again.
 * `installed` says whether apt-get ran.
 */
export function debianBinary(pkg: string, find: () => string | undefined, log: (line: string) => void = () => {}): { path: string | undefined; installed: boolean } {
  const found = find();
  if (found && settledPackage(pkg)) return { path: found, installed: false };
  log(found ? `Debian's ${pkg} package is being installed; waiting for it` : `no ${pkg} on this machine; installing Debian's ${pkg} package (apt-get, a few minutes)`);
  aptInstall(pkg, log);
  return { path: find(), installed: true };
}

/**
 * Installs one of Debian's packages with apt-get, as a test's set-up does on a fresh CI machine
 * (as root, else through `sudo -n`). Test suites run side by side (Nx runs several projects at
 * once), so two of them may install at the same moment: apt-get waits for dpkg's lock
 * (`DPkg::Lock::Timeout`, the time left of 15 minutes), and a run that still finds a lock taken
 * (the package lists' lock of `apt-get update`) is retried until then. A package another run has
 * just installed is left as it is. The package lists are refreshed only when the install fails
 * without them. Throws with apt-get's last output when it cannot install.
 */
export function aptInstall(pkg: string, log: (line: string) => void = () => {}): void {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const deadline = Date.now() + LOCK_WAIT_MS;
  const aptGet = (args: string[]): { ok: boolean; text: string } => {
    for (;;) {
      const wait = Math.max(1, Math.round((deadline - Date.now()) / 1000));
      const full = ['-o', `DPkg::Lock::Timeout=${wait}`, ...args];
      // sudo resets the environment, so the non-interactive front end is passed through env.
      const [command, argv] = root ? ['apt-get', full] : ['sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...full]];
      const result = spawnSync(command, argv, {
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeout: wait * 1000 + RUN_MS,
      });
      const how = result.signal ? `killed by ${result.signal}` : `exit ${result.status}`;
      const text = `${command} ${argv.join(' ')} (${how}): ${(result.stderr ?? '').slice(-1500)}${result.error ? ` ${String(result.error)}` : ''}`;
      if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') throw new Error(`could not install Debian's ${pkg}: apt-get ran past its time and was stopped; dpkg may need \`dpkg --configure -a\`. ${text}`);
      if (result.status === 0 || !LOCKED.test(result.stderr ?? '') || Date.now() >= deadline) return { ok: result.status === 0, text };
      log(`apt-get ${args[0]}: another apt-get holds a lock; waiting`);
      sleep(5000);
    }
  };
  const install = () => aptGet(['install', '-y', '--no-install-recommends', pkg]);
  let result = install();
  if (!result.ok) {
    const update = aptGet(['update']);
    result = install();
    if (!result.ok && !update.ok) result = { ok: false, text: `${result.text}\nafter a failed ${update.text}` };
  }
  if (!result.ok) throw new Error(`could not install Debian's ${pkg}: ${result.text}\nInstall it yourself (apt-get install -y ${pkg})${root ? '' : ', or run the tests as root to have them install it'}.`);
}
