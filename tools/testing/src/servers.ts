import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { debianBinary } from './apt';

/** A server started for a test: where it listens, and how to stop it (its files go with it). */
export interface TestServer {
  /** `redis://127.0.0.1:PORT` or `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  port: number;
  /** The server process (the postmaster for Postgres). */
  pid: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * A real `redis-server` (Debian's package, installed with apt-get when missing) on a free
 * 127.0.0.1 port, in a temporary directory, with no persistence; stop() kills it and removes the
 * directory, and a test process that exits without stop() still kills it.
 */
export async function startRedis(): Promise<TestServer> {
  const bin = debianBinary('redis-server', () => findBinary('redis-server', [])).path;
  if (!bin) throw new Error('redis-server is not installed and apt-get could not install it (apt-get install -y redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'multihop-redis-'));
  return withFreePort(async (port) => {
    const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = track(child, dir);
    await waitFor(child, /Ready to accept connections/, `redis-server on port ${port}`);
    return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop: server.stop };
  });
}

/**
 * A real Postgres (Debian's `postgresql`, installed with apt-get when missing): initdb into a
 * temporary data directory the `postgres` user owns, the server run as that user (`runuser -u
 * postgres --`; initdb and postgres refuse to run as root), trust authentication, listening on a
 * free 127.0.0.1 port only. stop() shuts it down and removes the directory.
 */
export async function startPostgres(): Promise<TestServer> {
  // Newest version first; read again after an install adds one.
  const binDirs = () => (existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse().map((v) => join('/usr/lib/postgresql', v, 'bin')) : []);
  const initdb = debianBinary('postgresql', () => findBinary('initdb', binDirs())).path;
  const postgres = findBinary('postgres', binDirs());
  if (!initdb || !postgres) throw new Error('postgres is not installed and apt-get could not install it (apt-get install -y postgresql)');
  const root = process.getuid?.() === 0;
  const asPostgres = (command: string, args: string[]): [string, string[]] => (root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);
  const dir = mkdtempSync(join(tmpdir(), 'multihop-postgres-'));
  const data = join(dir, 'data');
  if (root) {
    chownSync(dir, uid('postgres'), gid('postgres'));
    // The postgres user must be able to reach its data directory through private temporary
    // directories (a test run's sandbox is 0700): let others traverse them (search, not list).
    for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
      const { mode, uid: owner } = statSync(parent);
      if (owner === 0 && !(mode & 0o001)) chmodSync(parent, (mode & 0o7777) | 0o001);
    }
  }
  const [initCommand, initArgs] = asPostgres(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }
  return withFreePort(async (port) => {
    const [command, args] = asPostgres(postgres, ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    const server = track(child, dir, () => postmasterPid(data));
    await waitFor(child, /database system is ready to accept connections/, `postgres on port ${port}`);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, pid: postmasterPid(data) ?? child.pid!, stop: server.stop };
  });
}

function postmasterPid(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const running = new Set<() => void>();
process.on('exit', () => {
  for (const kill of running) kill();
});

/** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory; also on the test process's exit. */
function track(child: ChildProcess, dir: string, serverPid: () => number | undefined = () => child.pid): { stop: () => Promise<void> } {
  const killNow = () => {
    for (const pid of new Set([serverPid(), child.pid])) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(killNow);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const pid = serverPid();
      try {
        if (pid) process.kill(pid, 'SIGTERM');
        else child.kill('SIGTERM');
      } catch {
        // gone
      }
      const timer = setTimeout(killNow, 5000);
      await exited;
      clearTimeout(timer);
      killNow();
      running.delete(killNow);
    })());
  return { stop };
}

/** Resolves when the server prints `ready`; rejects with what it printed if it exits or takes too long. */
function waitFor(child: ChildProcess, ready: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => done(new Error(`${what} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output}`)), READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready.test(output)) done();
    };
    const onExit = (code: number | null) => done(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      // Keep draining its output so a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
      if (error) reject(error);
      else resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Runs `start` on a free port, trying another if the port was taken in between (another test's server). */
async function withFreePort<T extends TestServer>(start: (port: number) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      lastError = error;
      if (!/in use|Address already|could not bind|exited/i.test(String((error as Error).message))) throw error;
    }
  }
  throw lastError;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function findBinary(name: string, extraDirs: readonly string[]): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(':').filter(Boolean), '/usr/sbin', '/usr/bin', ...extraDirs];
  for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

function uid(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

function gid(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}
