import { createServer } from 'node:net';
import { cli } from '../test/cli';

// Every `multihop worker` option a new user can get wrong, and `eval`'s --queue/--store, through
// the real CLI: each is one line naming the option, exit code 2, before anything connects (or,
// for a server that is down, without waiting on it: the test times out if it does). No Redis or Postgres is needed here; the options'
// working behaviour is tested against real servers in queue.int.test.ts.

/** A 127.0.0.1 port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const QUEUE = 'redis://127.0.0.1:1'; // never reached: these fail on the option first

describe('multihop worker: bad options', () => {
  it.each([
    [['--concurrency', '0'], /^multihop: --concurrency must be a positive integer, got 0\n$/],
    [['--concurrency', 'four'], /^multihop: --concurrency must be an integer, got "four"\n$/],
    [['--rate-limit', 'fast'], /^multihop: --rate-limit "fast": give pairs per duration, e\.g\. 10\/1s, 600\/1m or 5\/500ms\n$/],
    [['--rate-limit', '0/1s'], /^multihop: --rate-limit "0\/1s": give pairs per duration/],
    [['--rate-limit', '10/'], /^multihop: --rate-limit "10\/": give pairs per duration/],
    [['--stalled-after', '1'], /^multihop: --stalled-after must be at least 2 seconds, got 1\n$/],
    [['--stalled-after', 'soon'], /^multihop: --stalled-after must be an integer, got "soon"\n$/],
    [['--idle-exit', '0'], /^multihop: --idle-exit must be at least 1 second, got 0\n$/],
    [['--idle-exit=-5'], /^multihop: --idle-exit must be at least 1 second, got -5\n$/],
    [['--idle-exit', 'never'], /^multihop: --idle-exit must be an integer, got "never"\n$/],
  ])('%j is refused naming the option', async (args, message) => {
    const { code, err } = await cli('worker', '--queue', QUEUE, ...args);
    expect({ code, err }).toEqual({ code: 2, err: expect.stringMatching(message) });
  });

  it('needs --queue, a Redis URL', async () => {
    expect(await cli('worker')).toMatchObject({ code: 2, err: expect.stringMatching(/^multihop: worker needs --queue redis:\/\/HOST:PORT; multihop worker --help lists its options\n/) });
    expect(await cli('worker', '--queue', 'localhost:6379')).toMatchObject({ code: 2, err: 'multihop: --queue "localhost:6379" is not a Redis URL (localhost://); give redis://HOST:PORT\n' });
    expect(await cli('worker', '--queue', 'not a url')).toMatchObject({ code: 2, err: 'multihop: --queue "not a url" is not a URL; give redis://HOST:PORT (e.g. redis://127.0.0.1:6379)\n' });
    expect(await cli('worker', '--queue', 'redis://127.0.0.1:6379/jobs')).toMatchObject({ code: 2, err: expect.stringMatching(/^multihop: --queue "redis:\/\/127\.0\.0\.1:6379\/jobs": the path must be a database number/) });
  });

  it('says in one line that a Redis server is not answering, without its password', async () => {
    const port = await closedPort();
    const { code, err } = await cli('worker', '--queue', `redis://user:secret@127.0.0.1:${port}`);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^multihop: --queue redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}: the Redis server is not answering \\(.*ECONNREFUSED.*\\)\\n$`));
    expect(err).not.toContain('secret');
  });
});

describe('multihop eval: bad --queue and --store', () => {
  const evalWith = (...args: string[]) => cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', ...args);

  it('refuses --store without --queue', async () => {
    expect(await evalWith('--store', 'postgres://postgres@127.0.0.1:5432/postgres')).toMatchObject({
      code: 2,
      err: 'multihop: --store is where queue workers record results: give it with --queue redis://HOST:PORT\n',
    });
  });

  it('refuses a --store that is not a Postgres URL, and a --queue that is not a Redis URL', async () => {
    expect(await evalWith('--queue', QUEUE, '--store', 'mysql://x')).toMatchObject({ code: 2, err: expect.stringMatching(/^multihop: --store "mysql:\/\/x" is not a Postgres URL; give postgres:\/\/USER@HOST:PORT\/DATABASE/) });
    expect(await evalWith('--queue', QUEUE, '--store', 'db-host:5432')).toMatchObject({ code: 2, err: expect.stringMatching(/^multihop: --store "db-host:5432" is not a Postgres URL/) });
    expect(await evalWith('--queue', 'http://127.0.0.1:6379')).toMatchObject({ code: 2, err: expect.stringMatching(/^multihop: --queue "http:\/\/127\.0\.0\.1:6379" is not a Redis URL \(http:\/\/\)/) });
  });

  it('says a Redis server that is down is not answering before it opens the corpus', async () => {
    const port = await closedPort();
    const { code, err } = await evalWith('--queue', `redis://127.0.0.1:${port}`, '--db', '/nonexistent/never-opened');
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^multihop: --queue redis://127\\.0\\.0\\.1:${port}: the Redis server is not answering`));
  });
});
