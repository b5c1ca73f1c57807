import { startOpenAICompatibleServer } from './openaiCompatibleServer';

describe('startOpenAICompatibleServer', () => {
  it('answers chat completions in the OpenAI wire format, with and without usage', async () => {
    const server = await startOpenAICompatibleServer(({ index }) =>
      index === 0 ? { content: 'hello', usage: { prompt_tokens: 3, completion_tokens: 1 } } : { content: 'bye', usage: null },
    );
    try {
      const post = (body: unknown) =>
        fetch(`${server.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const first = (await (await post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).json()) as Record<string, any>;
      expect(first['choices'][0].message).toEqual({ role: 'assistant', content: 'hello' });
      expect(first['usage']).toEqual({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
      const second = (await (await post({ model: 'm', messages: [] })).json()) as Record<string, any>;
      expect(second['usage']).toBeUndefined();
      expect(server.requests.map((r) => r.body.model)).toEqual(['m', 'm']);
    } finally {
      await server.close();
    }
  });

  it('sends OpenAI-style errors with the scripted status and headers', async () => {
    const server = await startOpenAICompatibleServer(() => ({ status: 429, content: 'slow down', headers: { 'retry-after': '2' } }));
    try {
      const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await response.json()).toEqual({ error: { message: 'slow down', type: 'stub_error', code: 429 } });
    } finally {
      await server.close();
    }
  });

  it('sends a raw body as it is (a proxy page), and leaves a hanging request open until it closes', async () => {
    const server = await startOpenAICompatibleServer(({ index }) =>
      index === 0 ? { raw: '<html><title>502</title></html>', headers: { 'content-type': 'text/html' } } : { hang: true },
    );
    try {
      const page = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html');
      expect(await page.text()).toBe('<html><title>502</title></html>');
      const hanging = fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' }).then(
        () => 'answered',
        () => 'dropped',
      );
      const early = await Promise.race([hanging, new Promise((r) => setTimeout(() => r('still open'), 200))]);
      expect(early).toBe('still open');
      await server.close();
      expect(await hanging).toBe('dropped');
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});
