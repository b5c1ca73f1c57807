import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, ProviderError, RunAbortedError } from '@multihop/core';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type StubReply, type StubRequest } from '@multihop/testing';
import { OpenAIEmbedder } from './OpenAIEmbedder';
import type { RetryNotice } from './createOpenAIProvider';

// A local OpenAI-compatible /embeddings endpoint, the shape vLLM, Ollama and LM Studio serve.
function startServer(dimensions: number): Promise<{ server: Server; baseURL: string; inputs: string[][] }> {
  const inputs: string[][] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { input, encoding_format } = JSON.parse(body) as { input: string[]; encoding_format?: string };
      inputs.push(input);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          object: 'list',
          model: 'local',
          data: input.map((text, index) => {
            const vector = Array.from({ length: dimensions }, (_, i) => (text.length + i) / 100);
            // The openai client asks for base64 float32 by default and decodes it itself.
            const embedding = encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
            return { object: 'embedding', index, embedding };
          }),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, inputs })));
}

describe('OpenAIEmbedder', () => {
  it('embeds through an OpenAI-compatible endpoint', async () => {
    const { server, baseURL, inputs } = await startServer(4);
    try {
      const e = new OpenAIEmbedder({ model: 'local', dimensions: 4, apiKey: 'none', baseURL });
      const vectors = await e.embed(['ab', 'abcd']);
      expect(vectors.map((v) => v.map((x) => Math.round(x * 100)))).toEqual([[2, 3, 4, 5], [4, 5, 6, 7]]);
      expect(inputs.flat()).toEqual(['ab', 'abcd']);
      expect(e.id).toContain('openai:local:4');
    } finally {
      server.close();
    }
  });

  it('rejects vectors of the wrong size', async () => {
    const { server, baseURL } = await startServer(3);
    try {
      await expect(new OpenAIEmbedder({ model: 'local', dimensions: 4, apiKey: 'none', baseURL }).embed(['x'])).rejects.toBeInstanceOf(ConfigError);
    } finally {
      server.close();
    }
  });

  it('fails as a ProviderError when nothing listens', async () => {
    const { server, baseURL } = await startServer(4);
    await new Promise((resolve) => server.close(resolve));
    const e = new OpenAIEmbedder({ model: 'local', dimensions: 4, apiKey: 'none', baseURL, maxRetries: 0 });
    const error = (await e.embed(['x']).catch((err: unknown) => err)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(`embedder openai:local at ${baseURL}/embeddings failed after 1 attempt(s): connection refused (is the server running and listening on that port?)`);
  });

  it('needs an API key (any string for local servers)', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => new OpenAIEmbedder({ model: 'm', dimensions: 4 })).toThrow(ConfigError);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe('OpenAIEmbedder against a scripted server: replies, retries, deadline and abort', () => {
  let server: OpenAICompatibleServer | undefined;
  const servers: OpenAICompatibleServer[] = [];
  afterEach(async () => {
    await Promise.all([...new Set([...servers.splice(0), ...(server ? [server] : [])])].map((s) => s.close()));
    server = undefined;
  });

  /** An embeddings list of `dimensions` floats per input, whatever `encoding_format` asked for (as some servers do). */
  const floats = (request: StubRequest, dimensions = 4): StubReply => {
    const input = request.body['input'] as string[];
    return { raw: JSON.stringify({ object: 'list', model: 'local', data: input.map((text, index) => ({ object: 'embedding', index, embedding: Array.from({ length: dimensions }, (_, i) => (text.length + i) / 100) })) }) };
  };
  async function serve(replies: Array<StubReply | 'ok'>): Promise<OpenAICompatibleServer> {
    server = await startOpenAICompatibleServer((request) => {
      const reply = replies[Math.min(request.index, replies.length - 1)]!;
      return reply === 'ok' ? floats(request) : reply;
    });
    servers.push(server);
    return server;
  }
  const embedder = (s: OpenAICompatibleServer, more: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
    new OpenAIEmbedder({ model: 'local', dimensions: 4, apiKey: 'none', baseURL: s.baseURL, retryBaseMs: 5, timeout: 2000, ...more });
  const failure = async (e: OpenAIEmbedder, signal?: AbortSignal) => (await e.embed(['ab'], signal).catch((err: unknown) => err)) as ProviderError;

  it('asks for floats and reads them from a server that ignores encoding_format', async () => {
    const s = await serve(['ok']);
    const vectors = await embedder(s).embed(['ab', 'abcd']);
    expect(vectors.map((v) => v.map((x) => Math.round(x * 100)))).toEqual([[2, 3, 4, 5], [4, 5, 6, 7]]);
    expect(s.requests[0]?.body['encoding_format']).toBe('float');
    expect(s.requests[0]?.path).toBe('/v1/embeddings');
  });

  it('sends a failed batch again alone, not with the batches that came back', async () => {
    // Three batches of two; the second request fails once.
    const s = await serve(['ok', { status: 500, content: 'embedding backend error' }, 'ok']);
    const vectors = await embedder(s, { batchSize: 2 }).embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(vectors.map((v) => Math.round(v[0]! * 100))).toEqual([1, 2, 3, 4, 5]);
    expect(s.requests.map((r) => r.body['input'])).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['ccc', 'dddd'], ['eeeee']]);
  });

  it('retries a 500, telling onRetry, and gives up with one line naming the endpoint, model and attempts', async () => {
    const s = await serve([{ status: 500, content: 'embedding backend error' }, 'ok']);
    const notices: RetryNotice[] = [];
    expect(await embedder(s, { onRetry: (n) => notices.push(n) }).embed(['ab'])).toHaveLength(1);
    expect(notices).toEqual([
      expect.objectContaining({ provider: 'openai:local', url: `${s.baseURL}/embeddings`, role: 'embedder', attempt: 1, maxAttempts: 3, status: 500, reason: '500 embedding backend error' }),
    ]);

    const always = await serve([{ status: 500, content: 'embedding backend error' }]);
    const error = await failure(embedder(always, { maxRetries: 2 }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(`embedder openai:local at ${always.baseURL}/embeddings failed after 3 attempt(s): 500 embedding backend error`);
    expect(error.details).toMatchObject({ provider: 'openai:local', status: 500, attempts: 3, retryable: true });
    expect(always.requests).toHaveLength(3);
  });

  it('waits out a 429\'s Retry-After, and reports a lasting 429 in one line', async () => {
    const s = await serve([{ status: 429, content: 'Rate limit reached for embeddings', headers: { 'retry-after-ms': '40' } }, 'ok']);
    const notices: RetryNotice[] = [];
    await embedder(s, { onRetry: (n) => notices.push(n) }).embed(['ab']);
    expect(notices).toEqual([expect.objectContaining({ status: 429, waitMs: 40 })]);

    const always = await serve([{ status: 429, content: 'Rate limit reached for embeddings' }]);
    const error = await failure(embedder(always, { maxRetries: 1 }));
    expect(error.message).toBe(`embedder openai:local at ${always.baseURL}/embeddings failed after 2 attempt(s): 429 Rate limit reached for embeddings`);
    expect(error.message).not.toMatch(/Troubleshooting|\n/);
  });

  it('does not retry a 400, and reads a vLLM-style error body', async () => {
    const s = await serve([{ status: 400, raw: JSON.stringify({ object: 'error', message: 'input too long for embedding model', code: 400 }) }]);
    const error = await failure(embedder(s));
    expect(error.message).toBe(`embedder openai:local at ${s.baseURL}/embeddings failed after 1 attempt(s): 400 input too long for embedding model`);
    expect(error.details).toMatchObject({ status: 400, attempts: 1, retryable: false });
    expect(s.requests).toHaveLength(1);
  });

  it('says what came back when a 200 reply is no embeddings list (a proxy\'s HTML page, JSON without data)', async () => {
    const s = await serve([{ raw: '<html><title>502</title></html>', headers: { 'content-type': 'text/html' } }]);
    const error = await failure(embedder(s));
    expect(error.message).toBe(`embedder openai:local at ${s.baseURL}/embeddings failed after 1 attempt(s): it returned text/html, not JSON (title "502"): "<html><title>502</title></html>"`);
    expect(error.details).toMatchObject({ attempts: 1, retryable: false });

    const nodata = await serve([{ raw: '{"object":"list"}' }]);
    expect((await failure(embedder(nodata))).message).toMatch(/a 200 reply with no `data` list, not an embeddings list/);
  });

  it('pairs vectors with texts by the reply\'s index, and refuses a reply with fewer vectors than texts', async () => {
    // A server (or proxy) that sends `data` in reverse order, each item with its own index.
    const reversed = await startOpenAICompatibleServer((request) => {
      const reply = JSON.parse((floats(request) as { raw: string }).raw) as { data: unknown[] };
      return { raw: JSON.stringify({ ...reply, data: reply.data.reverse() }) };
    });
    servers.push(reversed);
    const vectors = await embedder(reversed).embed(['a', 'bbb', 'cc']);
    expect(vectors.map((v) => Math.round(v[0]! * 100))).toEqual([1, 3, 2]);

    const short = await serve([{ raw: JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1, 2, 3, 4] }] }) }]);
    const error = (await embedder(short).embed(['a', 'b']).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('a 200 reply with 1 vector(s) for 2 input(s), not an embeddings list');

    const twice = await serve([{ raw: JSON.stringify({ object: 'list', data: [0, 0].map((index) => ({ object: 'embedding', index, embedding: [1, 2, 3, 4] })) }) }]);
    expect(((await embedder(twice).embed(['a', 'b']).catch((e: unknown) => e)) as Error).message).toContain('indices [0,0] that are not each of 0…1 once');
  });

  it('times out a hanging request with notices, and bounds the call with callDeadlineMs', async () => {
    const s = await serve([{ hang: true }]);
    const notices: RetryNotice[] = [];
    // A deadline well past the first attempt's timeout, so a stalled worker still sees that attempt time out and be retried.
    const error = await failure(embedder(s, { timeout: 150, maxRetries: 20, callDeadlineMs: 1500, onRetry: (n) => notices.push(n) }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(notices.length).toBeGreaterThanOrEqual(1);
    expect(notices[0]?.reason).toBe('timed out after 150 ms (no reply; the per-attempt timeout is timeout)');
    expect(error.message).toMatch(new RegExp(`^embedder openai:local at ${s.baseURL}/embeddings gave up after \\d+ attempt\\(s\\): the call's deadline of 1500 ms`));
    expect(s.requests.length).toBeLessThanOrEqual(10);
  });

  it('stops when the caller\'s AbortSignal fires mid-request', async () => {
    const controller = new AbortController();
    server = await startOpenAICompatibleServer(() => {
      controller.abort(new Error('user cancelled'));
      return { hang: true };
    });
    const error = await failure(embedder(server, { timeout: 10_000 }), controller.signal);
    // The abort, not the 10 s per-attempt timeout (a ProviderError, retried), ended the request.
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(error.message).toMatch(/user cancelled/);
    expect(server.requests).toHaveLength(1);
  });
});
