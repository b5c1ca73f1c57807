import { startOpenAICompatibleServer, type OpenAICompatibleServer, type StubReply } from '@multihop/testing';
import { z } from 'zod';
import { createModel, ProviderError, RunAbortedError, type PromptTemplate, type ProviderRequest } from '@multihop/core';
import { judgeCorrectness } from '@multihop/metrics';
import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { createOpenAIProvider, type RetryNotice } from './createOpenAIProvider';

const schema = z.object({ answer: z.string() });
const prompt: PromptTemplate<{ answer: string }> = {
  id: 'test.answer',
  role: 'writer',
  version: '1',
  schema,
  render: (vars) => [
    { role: 'system', content: 'Reply with JSON {"answer": string}.' },
    { role: 'user', content: String(vars['question']) },
  ],
};

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: StubReply[]): Promise<OpenAICompatibleServer> {
  server = await startOpenAICompatibleServer(({ index }) => replies[Math.min(index, replies.length - 1)] as StubReply);
  return server;
}

const fast = { apiKey: 'local', retryBaseMs: 5, timeoutMs: 2000 };

describe('openai provider against an OpenAI-compatible server on 127.0.0.1', () => {
  it('sends the rendered messages and reads content and usage', async () => {
    const s = await serve([{ content: '{"answer":"Kansas City"}', usage: { prompt_tokens: 31, completion_tokens: 8 } }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'qwen2.5-7b', baseURL: s.baseURL, ...fast }) });
    const result = await model.call({ prompt, vars: { question: 'Where?' } });
    expect(result.output).toEqual({ answer: 'Kansas City' });
    expect(result.usage).toMatchObject({ model: 'openai:qwen2.5-7b', promptTokens: 31, completionTokens: 8, estimated: false });
    expect(s.requests[0]?.path).toBe('/v1/chat/completions');
    expect(s.requests[0]?.body.model).toBe('qwen2.5-7b');
    expect(s.requests[0]?.body.messages).toEqual([
      { role: 'system', content: 'Reply with JSON {"answer": string}.' },
      { role: 'user', content: 'Where?' },
    ]);
    expect(s.requests[0]?.headers['authorization']).toBe('Bearer local');
  });

  it('reads token counts a server sends as digit strings as numbers, and estimates when they are no counts', async () => {
    const completion = (usage: object) =>
      JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"answer":"x"}' }, finish_reason: 'stop' }], usage });
    const s = await serve([{ raw: completion({ prompt_tokens: '50', completion_tokens: '5', total_tokens: '55' }) }, { raw: completion({ prompt_tokens: 'many', completion_tokens: 5 }) }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    expect((await model.call({ prompt, vars: { question: 'q' } })).usage).toMatchObject({ promptTokens: 50, completionTokens: 5, estimated: false });
    const guessed = (await model.call({ prompt, vars: { question: 'q' } })).usage;
    expect(guessed.estimated).toBe(true);
    expect(typeof guessed.promptTokens).toBe('number');
  });

  it('estimates tokens, marked as estimated, when the server sends no usage field', async () => {
    const s = await serve([{ content: '{"answer":"x"}', usage: null }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    const { usage } = await model.call({ prompt, vars: { question: 'q' } });
    expect(usage.estimated).toBe(true);
    expect(usage.completionTokens).toBe(Math.ceil('{"answer":"x"}'.length / 4));
  });

  it('retries a 429 after the Retry-After delay and then succeeds', async () => {
    const s = await serve([
      { status: 429, content: 'rate limited', headers: { 'retry-after-ms': '30' } },
      { status: 503, content: 'overloaded' },
      { content: '{"answer":"ok"}' },
    ]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 2 }) });
    expect((await model.call({ prompt, vars: { question: 'q' } })).output.answer).toBe('ok');
    expect(s.requests).toHaveLength(3);
  });

  it('gives up after the bounded retries with a ProviderError naming status and attempts', async () => {
    const s = await serve([{ status: 500, content: 'boom' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 2 }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.details).toMatchObject({ status: 500, attempts: 3, retryable: true });
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry a 401', async () => {
    const s = await serve([{ status: 401, content: 'bad key' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error.details).toMatchObject({ status: 401, attempts: 1, retryable: false });
    expect(s.requests).toHaveLength(1);
  });

  it('times out a slow reply, retries, and reports the timeout', async () => {
    const s = await serve([{ content: '{"answer":"late"}', delayMs: 400 }]);
    const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, timeoutMs: 100, maxRetries: 1 });
    const error = (await createModel({ provider }).call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.details.attempts).toBe(2);
    expect(error.message).toMatch(/time/i);
  });

  it('reports a dropped connection as retryable and fails when nothing listens', async () => {
    const s = await serve([{ destroy: true }, { content: '{"answer":"second try"}' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    expect((await model.call({ prompt, vars: { question: 'q' } })).output.answer).toBe('second try');

    const closed = s.baseURL;
    await s.close();
    server = undefined;
    const dead = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: closed, ...fast, maxRetries: 1 }) });
    const error = (await dead.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.details).toMatchObject({ attempts: 2, retryable: true });
  });

  it('stops when the AbortSignal fires mid-request', async () => {
    // The abort fires when the server has the request in hand, so it is mid-request however
    // loaded the machine is (a fixed 50 ms timer raced the request under load).
    const controller = new AbortController();
    server = await startOpenAICompatibleServer(() => {
      controller.abort(new Error('user cancelled'));
      return { content: '{"answer":"never"}', delayMs: 1000 };
    });
    const s = server;
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    await expect(model.call({ prompt, vars: { question: 'q' }, signal: controller.signal })).rejects.toBeInstanceOf(RunAbortedError);
    expect(s.requests).toHaveLength(1);
  });

  it('asks for JSON mode when configured', async () => {
    const s = await serve([{ content: '{"answer":"x"}' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, jsonMode: true }) });
    await model.call({ prompt, vars: { question: 'q' } });
    expect(s.requests[0]?.body.response_format).toEqual({ type: 'json_object' });
  });

  it('leaves JSON mode off for a prompt that answers in plain text (the PAR² judge), and reads its lines', async () => {
    const s = await serve([{ content: 'Explanation: both name Latin.\nDecision: Yes' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, jsonMode: true }) });
    const verdict = await judgeCorrectness(model, { question: 'Which language?', prediction: 'Latin', gold: 'Latin' }, { prompt: judgeCorrectnessPrompt });
    expect(verdict).toMatchObject({ decision: 'Yes', correct: 1, explanation: 'both name Latin.' });
    expect(s.requests[0]?.body.response_format).toBeUndefined();
    expect(JSON.stringify(s.requests[0]?.body.messages)).toContain('Decision: <yes|no>');
  });

  it('constrains a reply that declares a pattern when the server can (vLLM structured_outputs, older vLLM guided_regex, SGLang regex), and only then', async () => {
    // A selector-like prompt: the reply must be document ids, e.g. "Document2,Document0".
    const selector: PromptTemplate<{ ids: string }> = {
      id: 'test.selector',
      role: 'selector',
      version: '1',
      schema: z.object({ ids: z.string() }),
      reply: { instructions: 'Document ids, comma-separated.', pattern: '(Document[0-9],)*Document[0-9]', parse: (text) => ({ ok: true, value: { ids: text.trim() } }), format: (v) => v.ids },
      render: () => [{ role: 'user', content: 'Pick the useful documents.' }],
    };
    const pattern = '(Document[0-9],)*Document[0-9]';
    const s = await serve([{ content: 'Document2,Document0' }, { content: 'Document1' }, { content: 'Document3' }, { content: 'Document4' }]);
    const vllm = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, guidedDecoding: 'vllm' }) });
    expect((await vllm.call({ prompt: selector, vars: {} })).output).toEqual({ ids: 'Document2,Document0' });
    expect(s.requests[0]?.body.structured_outputs).toEqual({ regex: pattern });
    expect(s.requests[0]?.body.guided_regex).toBeUndefined();
    const legacy = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, guidedDecoding: 'vllm-legacy' }) });
    await legacy.call({ prompt: selector, vars: {} });
    expect(s.requests[1]?.body.guided_regex).toBe(pattern);
    expect(s.requests[1]?.body.structured_outputs).toBeUndefined();
    const sglang = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, guidedDecoding: 'sglang' }) });
    await sglang.call({ prompt: selector, vars: {} });
    expect(s.requests[2]?.body.regex).toBe(pattern);
    const plain = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    await plain.call({ prompt: selector, vars: {} });
    expect(s.requests[3]?.body.guided_regex).toBeUndefined();
    expect(s.requests[3]?.body.structured_outputs).toBeUndefined();
    expect(s.requests[3]?.body.regex).toBeUndefined();
  });

  it('sends a call\'s own temperature (group rollouts sample hotter than the role\'s default), and the configured one otherwise', async () => {
    const s = await serve([{ content: '{"answer":"a"}' }, { content: '{"answer":"b"}' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, temperature: 0 }) });
    await model.call({ prompt, vars: { question: 'q' }, temperature: 0.9 });
    await model.call({ prompt, vars: { question: 'q' } });
    expect(s.requests.map((r) => r.body.temperature)).toEqual([0.9, 0]);
  });

  describe('a 2xx reply that is no chat completion fails as a ProviderError saying what came back and from where', () => {
    const cases: Array<[string, StubReply, RegExp]> = [
      [
        'an HTML page (a proxy error page)',
        { raw: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx timed out</body></html>', headers: { 'content-type': 'text/html; charset=utf-8' } },
        /returned text\/html, not JSON \(title "502 Bad Gateway"\): "<!DOCTYPE html>/,
      ],
      ['JSON with no choices', { raw: '{"object":"error","message":"model not loaded"}' }, /a 200 reply with no `choices`, not a chat completion: "\{\\"object\\":\\"error\\"/],
      ['an empty choices list', { raw: '{"choices":[]}' }, /an empty `choices` list/],
      ['truncated JSON', { raw: '{"choices": [' }, /returned broken JSON/],
      ['an empty body', { raw: '' }, /an empty body/],
      ['a 204 with no body', { status: 204, raw: '' }, /a 204 reply with an empty body \(application\/json\), not a chat completion/],
      ['a gateway\'s 202 page', { status: 202, raw: '<html><title>Queued</title></html>', headers: { 'content-type': 'text/html' } }, /returned text\/html, not JSON \(title "Queued"\)/],
    ];
    it.each(cases)('%s', async (_what, reply, message) => {
      const s = await serve([reply]);
      const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
      const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toContain(`${s.baseURL}/chat/completions`);
      expect(error.message).toMatch(message);
      expect(error.message).not.toMatch(/Cannot read properties/);
      expect(error.details).toMatchObject({ attempts: 1, retryable: false });
    });
  });

  it('reads a chat completion sent with a content type other than JSON', async () => {
    const body = JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"answer":"plain"}' }, finish_reason: 'stop' }] });
    const s = await serve([{ raw: body, headers: { 'content-type': 'text/plain' } }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    expect((await model.call({ prompt, vars: { question: 'q' } })).output.answer).toBe('plain');
  });

  it('tells onRetry about each retry: the call, why, attempt n of m and the wait', async () => {
    const s = await serve([{ status: 503, content: 'overloaded' }, { status: 429, content: 'slow down', headers: { 'retry-after-ms': '20' } }, { content: '{"answer":"ok"}' }]);
    const notices: RetryNotice[] = [];
    const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 2, onRetry: (n) => notices.push(n) });
    expect((await createModel({ provider }).call({ prompt, vars: { question: 'q' } })).output.answer).toBe('ok');
    expect(notices).toEqual([
      expect.objectContaining({ provider: 'openai:m', url: `${s.baseURL}/chat/completions`, role: 'writer', promptId: 'test.answer', attempt: 1, maxAttempts: 3, status: 503, reason: expect.stringMatching(/overloaded/) }),
      expect.objectContaining({ attempt: 2, maxAttempts: 3, status: 429, waitMs: 20 }),
    ]);
  });

  it('bounds a call\'s total time with callDeadlineMs, naming the URL and the bound', async () => {
    const s = await serve([{ hang: true }]);
    const notices: RetryNotice[] = [];
    // A deadline well past the first attempt's timeout, so a stalled worker still sees that attempt time out and be retried.
    const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, timeoutMs: 200, maxRetries: 20, callDeadlineMs: 1500, onRetry: (n) => notices.push(n) });
    const error = (await createModel({ provider }).call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    // Twenty-one attempts of 200 ms were allowed; the 1500 ms deadline leaves room for eight at most.
    expect(s.requests.length).toBeGreaterThanOrEqual(1);
    expect(s.requests.length).toBeLessThanOrEqual(8);
    expect(error.message).toContain(`${s.baseURL}/chat/completions`);
    expect(error.message).toMatch(/deadline of 1500 ms/);
    expect(error.details.retryable).toBe(true);
    expect(notices.length).toBeGreaterThanOrEqual(1);
    // The setting to raise, by the names a library caller and a CLI user know it.
    expect(notices[0]?.reason).toBe('timed out after 200 ms (no reply; the per-attempt timeout is timeoutMs, MULTIHOP_TIMEOUT_MS in the CLI)');
  });

  it('says a connection was refused, and hints at the key on a 401', async () => {
    const s = await serve([{ status: 401, content: 'Incorrect API key provided' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) });
    const unauthorized = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(unauthorized.message).toMatch(/401 Incorrect API key provided \(the endpoint refused the API key: check OPENAI_API_KEY/);
    expect(unauthorized.message).not.toMatch(/Troubleshooting URL/);
    const closed = s.baseURL;
    await s.close();
    server = undefined;
    const dead = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: closed, ...fast, maxRetries: 0 }) });
    const refused = (await dead.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(refused.message).toMatch(/connection refused/);
  });

  it('asks about the model name and the /v1 on a 404', async () => {
    const s = await serve([{ status: 404, content: 'The model `gpt-4o-mni` does not exist' }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'gpt-4o-mni', baseURL: s.baseURL, ...fast }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error.message).toBe(
      `openai:gpt-4o-mni (role writer) at ${s.baseURL}/chat/completions failed after 1 attempt(s): 404 The model \`gpt-4o-mni\` does not exist (is the model name one the endpoint serves, and does the base URL end in /v1?)`,
    );
  });

  describe('what the server said beyond the text', () => {
    const request = (): ProviderRequest => ({
      role: 'writer',
      promptId: 'test.answer',
      messages: [{ role: 'user', content: 'q' }],
      vars: {},
      schema,
      jsonSchema: {},
      attempt: 0,
    });
    const completion = (message: Record<string, unknown>, finish_reason: string) =>
      JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });

    it('reports finish_reason, so a reply cut off at the token limit (length) can be refused', async () => {
      const s = await serve([{ raw: completion({ content: '{"answer":"Chief of' }, 'length') }, { content: '{"answer":"x"}' }]);
      const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast });
      const cut = await provider.generate(request());
      expect(cut).toMatchObject({ text: '{"answer":"Chief of', finishReason: 'length' });
      expect(cut.reasoning).toBeUndefined();
      expect((await provider.generate(request())).finishReason).toBe('stop');
    });

    it('reports a reasoning model\'s reasoning_content apart from the reply', async () => {
      const s = await serve([{ raw: completion({ content: '{"answer":"Latin"}', reasoning_content: 'The passage says Latin.' }, 'stop') }]);
      const reply = await createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }).generate(request());
      expect(reply).toMatchObject({ text: '{"answer":"Latin"}', reasoning: 'The passage says Latin.', finishReason: 'stop', usage: { promptTokens: 5, completionTokens: 7 } });
    });
  });

  it('sends no temperature, max_tokens or response_format unless configured (the server\'s defaults apply)', async () => {
    const s = await serve([{ content: '{"answer":"a"}' }]);
    await createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast }) }).call({ prompt, vars: { question: 'q' } });
    expect(s.requests[0]?.body).not.toHaveProperty('temperature');
    expect(s.requests[0]?.body).not.toHaveProperty('max_tokens');
    expect(s.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('reads the message of a vLLM/SGLang-style error body ({"object":"error","message":…}) and does not retry a 400', async () => {
    const body = { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", type: 'BadRequestError', param: null, code: 400 };
    const s = await serve([{ status: 400, raw: JSON.stringify(body) }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 2 }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(
      `openai:m (role writer) at ${s.baseURL}/chat/completions failed after 1 attempt(s): 400 This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.`,
    );
    expect(error.details).toMatchObject({ status: 400, attempts: 1, retryable: false });
    expect(s.requests).toHaveLength(1);
  });

  it('reads an error body that is not JSON (a proxy page) as one line, and retries a 502', async () => {
    const page = '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>';
    const s = await serve([{ status: 502, raw: page, headers: { 'content-type': 'text/html' } }]);
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 1 }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error.message).toMatch(/failed after 2 attempt\(s\): 502 502 Bad Gateway \(text\/html page\)$/);
    expect(error.message).not.toContain('\n');
    expect(error.details).toMatchObject({ status: 502, attempts: 2, retryable: true });
  });

  it('waits a Retry-After longer than retryMaxMs in full when the call\'s deadline allows', async () => {
    const s = await serve([{ status: 429, content: 'slow down', headers: { 'retry-after': '1' } }, { content: '{"answer":"ok"}' }]);
    const notices: RetryNotice[] = [];
    const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, retryMaxMs: 50, callDeadlineMs: 5000, onRetry: (n) => notices.push(n) });
    expect((await createModel({ provider }).call({ prompt, vars: { question: 'q' } })).output.answer).toBe('ok');
    // The wait taken is the server's 1 s, not retryMaxMs' 50 ms (the retry notice says what it waits).
    expect(notices).toEqual([expect.objectContaining({ status: 429, waitMs: 1000 })]);
    expect(s.requests).toHaveLength(2);
  });

  it('fails at once, saying so, when a Retry-After is longer than the call\'s deadline allows', async () => {
    const s = await serve([{ status: 429, content: 'slow down', headers: { 'retry-after': '30' } }, { content: '{"answer":"ok"}' }]);
    const notices: RetryNotice[] = [];
    const provider = createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, callDeadlineMs: 2000, onRetry: (n) => notices.push(n) });
    const error = (await createModel({ provider }).call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    // Not the 30 s the server asked for: one attempt, and no retry waited for (no notice).
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toMatch(/failed after 1 attempt\(s\): 429 slow down; the server asked to wait 30 s \(Retry-After\), more than the call's deadline of 2000 ms .* allows$/);
    expect(error.message).not.toContain('\n');
    expect(error.details).toMatchObject({ status: 429, attempts: 1 });
    expect(notices).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('names the cause of a dropped connection (other side closed, UND_ERR_SOCKET)', async () => {
    const s = await serve([{ destroy: true }]);
    const notices: RetryNotice[] = [];
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: s.baseURL, ...fast, maxRetries: 1, onRetry: (n) => notices.push(n) }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error.message).toMatch(/failed after 2 attempt\(s\): Connection error: other side closed \(UND_ERR_SOCKET\)$/);
    expect(error.details).toMatchObject({ attempts: 2, retryable: true });
    expect(notices[0]?.reason).toBe('Connection error: other side closed (UND_ERR_SOCKET)');
  });

  it('fails at once on a port fetch refuses (6000), as a configuration error', async () => {
    const model = createModel({ provider: createOpenAIProvider({ model: 'm', baseURL: 'http://127.0.0.1:6000/v1', ...fast, maxRetries: 2 }) });
    const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(
      'openai:m (role writer) at http://127.0.0.1:6000/v1/chat/completions failed after 1 attempt(s): Connection error: bad port (fetch refuses to connect to port 6000, one the Fetch standard blocks; serve the endpoint on another port)',
    );
    expect(error.details).toMatchObject({ attempts: 1, retryable: false });
  });

  it('calls the endpoint it names, never one LangChain would take from OPENAI_API_BASE or LANGSMITH_GATEWAY', async () => {
    // No baseURL: the provider names api.openai.com, so that is where the request (and the key) must go, not the stub.
    const s = await serve([{ content: '{"answer":"from the stub"}' }]);
    const saved = { base: process.env['OPENAI_API_BASE'], fetch: globalThis.fetch };
    process.env['OPENAI_API_BASE'] = s.baseURL;
    // No request leaves this machine: the client's fetch records where it would go and fails as an unreachable host does.
    const asked: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request) => {
      asked.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    try {
      const model = createModel({ provider: createOpenAIProvider({ model: 'm', apiKey: 'sk-test', maxRetries: 0, timeoutMs: 1000, callDeadlineMs: 3000 }) });
      const error = (await model.call({ prompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toContain('at https://api.openai.com/v1/chat/completions failed');
      expect(asked).toEqual(['https://api.openai.com/v1/chat/completions']);
      expect(s.requests).toHaveLength(0);
    } finally {
      globalThis.fetch = saved.fetch;
      if (saved.base === undefined) delete process.env['OPENAI_API_BASE'];
      else process.env['OPENAI_API_BASE'] = saved.base;
    }
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createOpenAIProvider({ model: 'm', apiKey: 'k', baseURL: 'localhost:8000/v1' })).toThrow(/baseURL "localhost:8000\/v1" is not an http\(s\) URL/);
  });
});
