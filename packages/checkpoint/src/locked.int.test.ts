import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MultihopError } from '@multihop/core';
import { openSqliteStore } from './sqlite';

// Another connection holds the SQLite file's write lock past the busy timeout (10 s), as a process
// stopped with Ctrl-Z inside a write does: the store's own writes and LangGraph's SqliteSaver's
// fail naming the store and the likely cause, not with SQLite's bare "database is locked".
const dir = mkdtempSync(join(tmpdir(), 'multihop-locked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a write lock held elsewhere past the busy timeout is refused naming the store, for the store’s writes and the saver’s', async () => {
  const file = join(dir, 'checkpoints.sqlite');
  const store = openSqliteStore(file);
  const Database = require('better-sqlite3') as new (file: string) => { exec(sql: string): unknown; close(): void };
  const holder = new Database(file);
  try {
    await store.saver.getTuple({ configurable: { thread_id: 't' } }); // the saver makes its tables on first use
    holder.exec('BEGIN IMMEDIATE');
    const locked = { code: 'STORE_LOCKED', message: expect.stringContaining(`checkpoint store ${file}: another process has held its write lock for over 10 s`) };
    await expect(store.startThread('t', { workflow: 'direct' } as never)).rejects.toThrow(MultihopError);
    await expect(store.saver.deleteThread('t')).rejects.toMatchObject(locked);
    holder.exec('ROLLBACK');
    // Once the lock is let go, the same store writes again.
    await store.startThread('t', { workflow: 'direct' } as never);
    expect((await store.getThread('t'))?.status).toBe('running');
  } finally {
    holder.close();
    await store.close();
  }
}, 60_000);
