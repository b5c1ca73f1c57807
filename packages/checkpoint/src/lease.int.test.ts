import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type TestServer } from '@multihop/testing';
import pg from 'pg';
import { emptyCheckpoint, type BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { RecordedCall } from '@multihop/core';
import type { CheckpointStore } from './CheckpointStore';
import { holdThread, MACHINE_TAG, ThreadBusyError } from './lease';
import { openMemoryStore } from './memory';
import { openCheckpointStore } from './open';

// Two processes on one thread, as each backend sees them: SQLite and Postgres through separate
// connections to one file or database (what two processes have), memory through one store.
const dir = mkdtempSync(join(tmpdir(), 'multihop-lease-'));
let server: TestServer | undefined;
let n = 0;

async function freshDatabase(): Promise<string> {
  server ??= await startPostgres();
  const name = `lease_${++n}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const backends: Array<[string, () => Promise<() => Promise<CheckpointStore>>]> = [
  ['sqlite', async () => {
    const file = join(dir, `store-${++n}.sqlite`);
    return () => openCheckpointStore(file);
  }],
  ['postgres', async () => {
    const url = await freshDatabase();
    return () => openCheckpointStore(url);
  }],
  ['memory', async () => {
    const store = openMemoryStore();
    return async () => store;
  }],
];

describe.each(backends)('thread leases on %s', (_name, backend) => {
  let open: () => Promise<CheckpointStore>;
  const opened: CheckpointStore[] = [];
  const connection = async () => {
    const store = await open();
    opened.push(store);
    return store;
  };
  beforeAll(async () => {
    open = await backend();
  }, 1_500_000); // a fresh CI machine installs postgresql first
  afterAll(async () => {
    for (const store of opened) await store.close();
  });

  it('lets one process hold a thread: a second is refused, naming the holder, until the first releases it', async () => {
    const [a, b] = [await connection(), await connection()];
    const first = await holdThread(a, 't1', { owner: 'host-a:101' });
    const refused = holdThread(b, 't1', { owner: 'host-b:202' });
    await expect(refused).rejects.toBeInstanceOf(ThreadBusyError);
    await expect(refused).rejects.toThrow(/thread "t1" in .* is being run by another process \(host-a:101; its lease runs to \d{4}-\d\d-\d\dT/);
    // Another thread is free, and the holder may take its own lease again.
    await (await holdThread(b, 't2', { owner: 'host-b:202' })).release();
    expect(await a.acquireLease('t1', 'host-a:101', 30_000)).toEqual({ held: true });
    await first.release();
    const second = await holdThread(b, 't1', { owner: 'host-b:202' });
    expect(second.held).toBe(true);
    await second.release();
  });

  it('a waiting process takes the thread when the holder releases it, and is told once whom it waits for', async () => {
    const [a, b] = [await connection(), await connection()];
    const first = await holdThread(a, 'w1', { owner: 'host-a:101' });
    const told: string[] = [];
    let taken = false;
    const waiting = holdThread(b, 'w1', { owner: 'host-b:202', wait: { pollMs: 20, onWait: (holder) => told.push(holder.owner) } }).then((lease) => {
      taken = true;
      return lease;
    });
    // Several polls go by while the first holds it (renewed in the background).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(taken).toBe(false);
    await first.release();
    const second = await waiting;
    expect([second.held, told]).toEqual([true, ['host-a:101']]);
    await second.release();
  });

  it('a dead holder’s lease expires: another process takes it, and the stalled one finds it gone', async () => {
    const [a, b] = [await connection(), await connection()];
    // Taken and never renewed, as by a process killed at once.
    expect(await a.acquireLease('d1', 'host-a:101', 100)).toEqual({ held: true });
    const second = await holdThread(b, 'd1', { owner: 'host-b:202', wait: { pollMs: 20 } });
    expect(second.held).toBe(true);
    // The first process wakes: its renewal fails and its release leaves the new holder's lease alone.
    expect(await a.renewLease('d1', 'host-a:101', 30_000)).toBe(false);
    await a.releaseLease('d1', 'host-a:101');
    await expect(holdThread(a, 'd1', { owner: 'host-a:101' })).rejects.toThrow('host-b:202');
    await second.release();
  });

  it('a holder whose lease was taken over learns it: confirm() says so at once, and its signal aborts the run', async () => {
    const [a, b] = [await connection(), await connection()];
    const first = await holdThread(a, 's1', { owner: 'host-a:101', ttlMs: 90 });
    expect(await first.confirm()).toBe(true);
    // Another process takes it over as if the lease had expired (the first stalled past its expiry).
    await b.releaseLease('s1', 'host-a:101');
    expect(await b.acquireLease('s1', 'host-b:202', 30_000)).toEqual({ held: true });
    expect(await first.confirm()).toBe(false);
    expect([first.held, first.signal.aborted]).toEqual([false, true]);
    expect(String(first.signal.reason)).toContain('lost thread "s1"');
    await first.release();
    expect(await b.renewLease('s1', 'host-b:202', 30_000)).toBe(true);
    // Without confirm(), the background renewal finds the loss too.
    const third = await holdThread(a, 's2', { owner: 'host-a:101', ttlMs: 90 });
    await b.releaseLease('s2', 'host-a:101');
    expect(await b.acquireLease('s2', 'host-b:202', 30_000)).toEqual({ held: true });
    await new Promise<void>((resolve) => third.signal.addEventListener('abort', () => resolve()));
    expect(third.held).toBe(false);
  });

  it('its journal keeps the first reply recorded for a call: a second write of the same call changes nothing', async () => {
    const store = await connection();
    const call = (text: string): RecordedCall => ({ output: { answer: text }, text, usage: { role: 'writer', model: 'offline', promptTokens: 1, completionTokens: 1, estimated: false, cached: false, attempts: 1, latencyMs: 0 } });
    await store.calls.put('j1', 'k', call('first'));
    await store.calls.put('j1', 'k', call('second'));
    expect((await store.calls.get('j1', 'k'))?.text).toBe('first');
  });

  it('a holder that lost its thread writes nothing more of it: its checkpoints and journal entries are refused, and the new holder\'s stay', async () => {
    const [a, b] = [await connection(), await connection()];
    const first = await holdThread(a, 'f1', { owner: 'host-a:101' });
    const durable = first.durable();
    const saver = durable.checkpointer as BaseCheckpointSaver;
    const config = { configurable: { thread_id: 'f1', checkpoint_ns: '' } };
    const call = (text: string): RecordedCall => ({ output: { answer: text }, text, usage: { role: 'writer', model: 'offline', promptTokens: 1, completionTokens: 1, estimated: false, cached: false, attempts: 1, latencyMs: 0 } });
    // While it holds the thread, its writes go through.
    await saver.put(config, emptyCheckpoint(), { source: 'input', step: -1, parents: {} }, {});
    await durable.calls.put('f1', 'k0', call('first holder'));
    // Another process takes the thread over (the first stalled past its lease) and records a call.
    await b.releaseLease('f1', 'host-a:101');
    expect(await b.acquireLease('f1', 'host-b:202', 30_000)).toEqual({ held: true });
    await b.calls.put('f1', 'k1', call('second holder'));
    const checkpoints = async () => {
      const ids: string[] = [];
      for await (const tuple of b.saver.list(config)) ids.push(tuple.checkpoint.id);
      return ids;
    };
    const before = await checkpoints();
    // The first wakes and writes before its next renewal: refused, and its run stops.
    await expect(saver.put(config, emptyCheckpoint(), { source: 'loop', step: 0, parents: {} }, {})).rejects.toThrow(/lost thread "f1"/);
    await expect(durable.calls.put('f1', 'k1', call('late first holder'))).rejects.toThrow(/lost thread "f1"/);
    expect(first.signal.aborted).toBe(true);
    expect(await checkpoints()).toEqual(before);
    expect((await b.calls.get('f1', 'k1'))?.text).toBe('second holder');
    // Reads still pass.
    expect((await durable.calls.get('f1', 'k0'))?.text).toBe('first holder');
    await first.release();
  });

  it('a holder on this machine whose process is gone is taken over at once; a live one, or one of another machine or pid namespace, is not', async () => {
    const [a, b] = [await connection(), await connection()];
    expect(MACHINE_TAG).toMatch(/^[0-9a-f]{8}\.\d+$/);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    expect(await a.acquireLease('k1', `${hostname()}:${gone}:dead@${MACHINE_TAG}`, 30_000)).toEqual({ held: true });
    const taken = await holdThread(b, 'k1', { owner: 'host-b:202' });
    expect(taken.held).toBe(true);
    await taken.release();
    expect(await a.acquireLease('k2', `${hostname()}:${process.pid}:alive@${MACHINE_TAG}`, 30_000)).toEqual({ held: true });
    await expect(holdThread(b, 'k2', { owner: 'host-b:202' })).rejects.toThrow(`(${hostname()}:${process.pid}:alive@${MACHINE_TAG};`);
    // The same host name and a pid that is gone here, but another boot or pid namespace (a container of
    // the same image): that process may well be alive, so its lease is left to expire.
    expect(await a.acquireLease('k3', `${hostname()}:${gone}:twin@00000000.1`, 30_000)).toEqual({ held: true });
    await expect(holdThread(b, 'k3', { owner: 'host-b:202' })).rejects.toThrow(`(${hostname()}:${gone}:twin@00000000.1;`);
  });

  // Postgres races for real (the upserts run at once on separate connections); SQLite and memory
  // take the calls one after another (better-sqlite3 is synchronous), so there it checks the outcome only.
  it('of many processes racing for one thread, exactly one gets it', async () => {
    const stores = await Promise.all(Array.from({ length: 6 }, () => connection()));
    const states = await Promise.all(stores.map((store, i) => store.acquireLease('r1', `racer-${i}`, 30_000)));
    expect(states.filter((s) => s.held)).toHaveLength(1);
    const winner = `racer-${states.findIndex((s) => s.held)}`;
    for (const s of states) if (!s.held) expect(s.owner).toBe(winner);
  });
});
