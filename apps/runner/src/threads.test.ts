import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCheckpointStore } from '@multihop/checkpoint';
import { sharedDatasetsDir } from '@multihop/testing';
import { cli } from '../test/cli';

// What a new user meets around durable runs, through the CLI's main(): each mistake is one line
// naming the option, the variable or the file, and exit code 2, before any corpus is opened.
process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...extra: string[]) => cli('run', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-train', '--id', 'any', '--db', join(dir, 'lance'), ...extra);

describe('run --thread / resume: bad input', () => {
  it('a thread id with characters outside letters, digits and . _ : - is refused', async () => {
    const { code, err } = await run('--thread', 'my run!', '--checkpoints', join(dir, 'a.sqlite'));
    expect(code).toBe(2);
    expect(err).toContain('--thread "my run!": use letters, digits, and . _ : -');
  });

  it('--checkpoints naming a directory says so and how to fix it', async () => {
    const { code, err } = await run('--thread', 't1', '--checkpoints', dir);
    expect(code).toBe(2);
    expect(err).toContain(`checkpoint store ${dir}: is a directory; give a file path`);
  });

  it('--checkpoints naming a file that is not SQLite names the file, leaves it as it was and does not suggest deleting it', async () => {
    const file = join(dir, 'notes.txt');
    const notes = 'these are not checkpoints\n'.repeat(100);
    writeFileSync(file, notes);
    const before = readdirSync(dir).sort();
    const { code, err } = await run('--thread', 't1', '--checkpoints', file);
    expect(code).toBe(2);
    expect(err).toContain(`checkpoint store ${file}: is not a SQLite file (file is not a database), so it holds no checkpoints; it is left as it was: give another --checkpoints path`);
    expect(err).not.toMatch(/delete/i);
    expect(readFileSync(file, 'utf8')).toBe(notes);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it("--checkpoints naming another program's SQLite database refuses it, naming why, and writes nothing to it", async () => {
    const Database = require('better-sqlite3') as new (file: string) => { exec(sql: string): void; close(): void };
    const app = join(dir, 'app.sqlite');
    const db = new Database(app);
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada');");
    db.close();
    const before = readFileSync(app);
    const { code, err } = await run('--thread', 't1', '--checkpoints', app);
    expect(code).toBe(2);
    expect(err).toContain(`checkpoint store ${app}: is a SQLite database, but its tables (users) are not a checkpoint store's; it is left as it was: give another --checkpoints path`);
    expect(readFileSync(app).equals(before)).toBe(true);
    expect(existsSync(`${app}-wal`)).toBe(false);
    // A table of the store's name with other columns is someone else's too.
    const clash = join(dir, 'clash.sqlite');
    const other = new Database(clash);
    other.exec('CREATE TABLE multihop_threads (id INTEGER PRIMARY KEY, note TEXT);');
    other.close();
    const second = await run('--thread', 't1', '--checkpoints', clash);
    expect(second.code).toBe(2);
    expect(second.err).toContain(`checkpoint store ${clash}: is a SQLite database, but its table multihop_threads has no column thread_id, spec, status, result, created_at, updated_at, so it is not a checkpoint store's`);
  });

  it('a Postgres store that does not answer names its URL without the password', async () => {
    const { code, err } = await run('--thread', 't1', '--checkpoints', 'postgres://me:secret@127.0.0.1:1/db');
    expect(code).toBe(2);
    expect(err).toContain('checkpoint store postgres://me:***@127.0.0.1:1/db: cannot be opened');
    expect(err).not.toContain('secret');
  });

  it('resume without a thread id says how threads are started', async () => {
    const { code, err } = await cli('resume');
    expect(code).toBe(2);
    expect(err).toContain('resume needs a thread id: multihop resume <thread id>');
  });

  it('resume of a thread an empty store does not have says the store has none', async () => {
    const file = join(dir, 'empty.sqlite');
    await (await openCheckpointStore(file)).close();
    const { code, err } = await cli('resume', 'nothing-here', '--checkpoints', file);
    expect(code).toBe(2);
    expect(err).toContain(`no thread "nothing-here" in ${file} (it has none)`);
  });

  it('a thread whose command failed before its run began (a mistyped --id) is not kept: the corrected command takes the same --thread', async () => {
    const file = join(dir, 'typo.sqlite');
    const args = (id: string) => ['run', '--workflow', 'direct', '--dataset', 'hotpotqa-train', '--setting', 'closed', '--id', id, '--db', join(dir, 'lance'), '--thread', 'fresh1', '--checkpoints', file];
    const typo = await cli(...args('5a7decc75542995f4f40230'));
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('no question with id "5a7decc75542995f4f40230"');
    const right = await cli(...args('5a7decc75542995f4f40230f'));
    expect(right.err).not.toContain('belongs to another run');
    expect(right.code).toBe(0);
    const store = await openCheckpointStore(file);
    expect((await store.getThread('fresh1'))?.status).toBe('done');
    await store.close();
    // The same run with one option changed is another run, and the refusal names the option.
    const budgeted = await cli(...args('5a7decc75542995f4f40230f'), '--max-llm-calls', '3');
    expect(budgeted.code).toBe(2);
    expect(budgeted.err).toContain('belongs to another run (workflow direct, question 5a7decc75542995f4f40230f of hotpotqa-train');
    expect(budgeted.err).toContain('what differs: budget none, now {"maxLlmCalls":3})');
  });

  it('a store whose thread records were damaged says so, naming the store and the thread, and still lists the readable ones', async () => {
    const file = join(dir, 'damaged.sqlite');
    const store = await openCheckpointStore(file);
    await store.startThread('good', { workflow: 'direct', dataset: 'hotpotqa-train', id: 'x' });
    await store.startThread('torn', { workflow: 'direct' });
    await store.startThread('empty', {});
    await store.close();
    const Database = require('better-sqlite3') as new (file: string) => { prepare(sql: string): { run(...args: unknown[]): unknown }; close(): void };
    const db = new Database(file);
    db.prepare("UPDATE multihop_threads SET spec = '{\"workflow\":' WHERE thread_id = 'torn'").run();
    db.close();
    const torn = await cli('resume', 'torn', '--checkpoints', file);
    expect(torn.code).toBe(2);
    expect(torn.err).toContain(`checkpoint store ${file}: thread "torn" has a spec that is not JSON`);
    const empty = await cli('resume', 'empty', '--checkpoints', file);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain(`thread "empty" records no run to continue`);
    const missing = await cli('resume', 'other', '--checkpoints', file);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no thread "other" in .*; recent threads: .*good \(direct, running\)/);
    expect(missing.err).not.toContain('torn (');
  });

  it('resume with a store that does not exist names it, and does not make it', async () => {
    const file = join(dir, 'no-such-store.sqlite');
    const { code, err } = await cli('resume', 'nothing-here', '--checkpoints', file);
    expect(code).toBe(2);
    expect(err).toContain(`no checkpoint store at ${file}: no run with --thread has used it`);
    expect(existsSync(file)).toBe(false);
  });

  it('MULTIHOP_OFFLINE_LATENCY_MS that is not a number of milliseconds is refused by name', async () => {
    process.env['MULTIHOP_OFFLINE_LATENCY_MS'] = 'fast';
    try {
      const { code, err } = await run();
      expect(code).toBe(2);
      expect(err).toContain('MULTIHOP_OFFLINE_LATENCY_MS must be a number of milliseconds >= 0, got "fast"');
    } finally {
      delete process.env['MULTIHOP_OFFLINE_LATENCY_MS'];
    }
  });
});
