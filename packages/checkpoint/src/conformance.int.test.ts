import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { RunDeltaSaver } from '@multihop/engine-langgraph';
import { startPostgres, type TestServer } from '@multihop/testing';
import pg from 'pg';
import type { CheckpointStore } from './CheckpointStore';
import { openCheckpointStore } from './open';

// LangGraph's own checkpointer conformance suite, run against each backend as the project opens
// it (openCheckpointStore: the saver shares its database with the store's own tables), and
// against RunDeltaSaver, the wrapper a durable LangGraph run actually writes through.

/** A fresh store per checkpointer, as the suite requires (no state shared between instances). */
function initializer(name: string, open: () => Promise<CheckpointStore>, wrap: (saver: BaseCheckpointSaver) => BaseCheckpointSaver, hooks: { beforeAll?: () => Promise<void>; afterAll?: () => Promise<void> } = {}) {
  const stores = new Map<BaseCheckpointSaver, CheckpointStore>();
  return {
    checkpointerName: name,
    beforeAllTimeout: 1_500_000, // a fresh CI machine installs postgresql first, after any other suite's apt-get lets go of the lock
    ...hooks,
    async createCheckpointer() {
      const store = await open();
      const saver = wrap(store.saver);
      stores.set(saver, store);
      return saver;
    },
    async destroyCheckpointer(saver: BaseCheckpointSaver) {
      await stores.get(saver)?.close();
      stores.delete(saver);
    },
  };
}

// The suite is written for vitest and uses its expect.soft in one test; jest's expect is the
// same check, only stopping at the first failure.
(expect as unknown as { soft?: unknown }).soft ??= expect;

const dir = mkdtempSync(join(tmpdir(), 'multihop-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const sqliteFile = () => join(dir, `store-${++n}.sqlite`);

// The SQLite backend is LangChain's SqliteSaver, named as the suite knows it: the suite skips, with
// its reason printed, the one test that saver is documented to fail (it stores every channel
// value at each checkpoint, not only the changed ones: more bytes, the same state).
validate(initializer('@langchain/langgraph-checkpoint-sqlite', () => openCheckpointStore(sqliteFile()), (s) => s));

// A real Postgres (Debian's package, installed when missing) on a port of the test's own; each
// checkpointer gets a database of its own.
let server: TestServer | undefined;
async function freshDatabase(): Promise<string> {
  const name = `conformance_${++n}`;
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server!.url);
  url.pathname = `/${name}`;
  return url.toString();
}
const postgres = {
  async beforeAll() {
    server ??= await startPostgres();
  },
  async afterAll() {
    await server?.stop();
    server = undefined;
  },
};
validate(initializer('@multihop/checkpoint postgres', async () => openCheckpointStore(await freshDatabase()), (s) => s, postgres));
validate(initializer('@multihop/checkpoint postgres through RunDeltaSaver', async () => openCheckpointStore(await freshDatabase()), (s) => RunDeltaSaver.over(s), postgres));
