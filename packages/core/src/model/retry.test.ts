import { z } from 'zod';
import { MultihopError, ProviderError, RunAbortedError } from '../errors';
import { createModel } from './createModel';
import type { ChatMessage, PromptTemplate, Provider } from './port';
import { retryAfterMs, retryingProvider, type ProviderRetryNotice } from './retry';

const prompt: PromptTemplate<{ answer: string }> = {
  id: 'test.answer',
  role: 'writer',
  version: '1',
  schema: z.object({ answer: z.string() }),
  render: (vars): ChatMessage[] => [{ role: 'user', content: `Answer: ${String(vars['question'])}` }],
};

/** A provider of one's own whose HTTP client throws `failures` in turn, then answers. */
function flaky(failures: unknown[]): Provider & { calls: number } {
  const provider = {
    id: 'acme:model',
    calls: 0,
    async generate() {
      const failure = failures[provider.calls++];
      if (failure !== undefined) throw failure;
      return { text: '{"answer":"Paris"}', model: 'acme-1', usage: { promptTokens: 7, completionTokens: 3 } };
    },
  };
  return provider;
}

const httpError = (status: number, headers?: Record<string, string>) => Object.assign(new Error(`HTTP ${status}`), { status, ...(headers ? { headers } : {}) });

describe('retryingProvider: bounded retries for a provider of your own', () => {
  it('tries a 429, a 503 and a dropped connection again, telling onRetry each time, and answers', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const provider = flaky([httpError(429), httpError(503), reset]);
    const notices: ProviderRetryNotice[] = [];
    const model = createModel({ provider: retryingProvider(provider, { maxRetries: 3, baseDelayMs: 1, onRetry: (n) => notices.push(n) }) });
    const { output, usage } = await model.call({ prompt, vars: { question: 'capital of France?' } });
    expect(output).toEqual({ answer: 'Paris' });
    expect(usage).toMatchObject({ promptTokens: 7, completionTokens: 3 });
    expect(provider.calls).toBe(4);
    expect(notices.map(({ waitMs: _w, ...n }) => n)).toEqual([
      { provider: 'acme:model', role: 'writer', promptId: 'test.answer', attempt: 1, maxAttempts: 4, reason: 'provider acme:model: HTTP 429', status: 429 },
      { provider: 'acme:model', role: 'writer', promptId: 'test.answer', attempt: 2, maxAttempts: 4, reason: 'provider acme:model: HTTP 503', status: 503 },
      { provider: 'acme:model', role: 'writer', promptId: 'test.answer', attempt: 3, maxAttempts: 4, reason: 'provider acme:model: socket hang up' },
    ]);
    // Exponential backoff from 1 ms with up to 25% jitter: 1–2, 2–3, 4–5 ms.
    expect(notices.map((n) => n.waitMs >= 2 ** (n.attempt - 1) && n.waitMs <= Math.ceil(2 ** (n.attempt - 1) * 1.25))).toEqual([true, true, true]);
  });

  it('fails at once on a failure a retry cannot mend (a 400), and names the attempts when the retries run out', async () => {
    const refused = flaky([httpError(400)]);
    const once = createModel({ provider: retryingProvider(refused, { baseDelayMs: 1 }) });
    const error = await once.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details).toEqual({ provider: 'acme:model', status: 400, attempts: 1, retryable: false });
    expect(refused.calls).toBe(1);

    const down = flaky([httpError(502), httpError(502), httpError(502), httpError(502)]);
    const spent = createModel({ provider: retryingProvider(down, { maxRetries: 2, baseDelayMs: 1 }) });
    const last = (await spent.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect({ message: last.message, details: last.details, calls: down.calls }).toEqual({
      message: 'provider acme:model: HTTP 502 (after 3 attempts)',
      details: { provider: 'acme:model', status: 502, attempts: 3, retryable: true },
      calls: 3,
    });
    expect((last.cause as Error).message).toBe('HTTP 502');
  });

  it("waits as long as the failure's Retry-After asks, and fails at once when it asks for more than maxDelayMs", async () => {
    const notices: ProviderRetryNotice[] = [];
    const polite = flaky([httpError(429, { 'retry-after-ms': '3' })]);
    await createModel({ provider: retryingProvider(polite, { baseDelayMs: 1, onRetry: (n) => notices.push(n) }) }).call({ prompt, vars: { question: 'q' } });
    expect(notices.map((n) => n.waitMs)).toEqual([3]);

    const slow = flaky([httpError(429, { 'retry-after': '120' })]);
    const error = (await createModel({ provider: retryingProvider(slow, { maxDelayMs: 1000 }) }).call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error.message).toBe('provider acme:model: HTTP 429; it asked to wait 120000 ms (Retry-After), more than maxDelayMs (1000 ms)');
    expect(slow.calls).toBe(1);
  });

  it("ends a wait as soon as the run's signal fires, and sends nothing after it", async () => {
    const provider = flaky([httpError(503), httpError(503)]);
    const controller = new AbortController();
    // A minute's backoff, aborted as the first retry is announced.
    const wrapped = retryingProvider(provider, { baseDelayMs: 60_000, onRetry: () => controller.abort(new Error('user stopped the run')) });
    const error = await createModel({ provider: wrapped }).call({ prompt, vars: { question: 'q' }, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(provider.calls).toBe(1);
  });

  it('keeps the provider id (caches and fingerprints see the same provider) and refuses settings that are no counts', () => {
    const provider = flaky([]);
    expect(retryingProvider(provider).id).toBe('acme:model');
    expect(() => retryingProvider(provider, { maxRetries: -1 })).toThrow(MultihopError);
    expect(() => retryingProvider(provider, { baseDelayMs: 1.5 })).toThrow('retryingProvider: baseDelayMs must be a whole number of at least 0, got 1.5');
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after in seconds or as an HTTP date, from Headers or a plain object', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    expect(retryAfterMs({ 'retry-after': new Date(Date.now() + 60_000).toUTCString() })).toBeGreaterThan(55_000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': '' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
