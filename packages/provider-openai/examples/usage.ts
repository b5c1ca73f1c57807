import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createModel, createModelFromEnv } from '@multihop/core';
import { createOpenAIProvider } from '@multihop/provider-openai';
import { z } from 'zod';

// A stand-in for vLLM, Ollama or LM Studio on 127.0.0.1: it answers chat completions in the
// OpenAI wire format, with a usage field, and says 429 to the first request.
let requests = 0;
const server = createServer((req, res) => {
  req.resume().on('end', () => {
    requests++;
    res.setHeader('content-type', 'application/json');
    if (requests === 1) {
      res.statusCode = 429;
      res.setHeader('retry-after-ms', '10');
      res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
      return;
    }
    const content = JSON.stringify({ answer: 'Chief of Protocol' });
    res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'local', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 } }));
  });
});

const prompt = {
  id: 'demo.answer',
  role: 'writer',
  version: '1',
  schema: z.object({ answer: z.string() }),
  render: (vars: Record<string, unknown>) => [{ role: 'user' as const, content: String(vars['question']) }],
};

async function main(): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  try {
    // Direct: a provider for one endpoint and model, behind core's model port (parsing, repair, usage).
    const model = createModel({ provider: createOpenAIProvider({ model: 'qwen2.5-7b-instruct', baseURL, apiKey: 'local', retryBaseMs: 5 }) });
    const { output, usage } = await model.call({ prompt, vars: { question: 'What position did Shirley Temple hold?' } });
    console.log(output, usage);
    assert.equal(output.answer, 'Chief of Protocol');
    assert.equal(usage.promptTokens, 21);
    assert.equal(requests, 2); // the 429 was retried

    // From the environment, as the CLI does: MULTIHOP_MODEL=openai:<model>, OPENAI_BASE_URL, OPENAI_API_KEY.
    const resolved = createModelFromEnv({
      env: { MULTIHOP_MODEL: 'openai:qwen2.5-7b-instruct', OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'local' },
      configPath: undefined,
      openai: createOpenAIProvider,
    });
    assert.equal(resolved.describe.default, 'openai:qwen2.5-7b-instruct');
    assert.equal((await resolved.port.call({ prompt, vars: { question: 'Again?' } })).output.answer, 'Chief of Protocol');
  } finally {
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
