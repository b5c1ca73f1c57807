import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, ProviderError } from '@multihop/core';
import { OpenAIEmbedder } from './OpenAIEmbedder';

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
    const e = new OpenAIEmbedder({ model: 'local', dimensions: 4, apiKey: 'none', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 });
    await expect(e.embed(['x'])).rejects.toBeInstanceOf(ProviderError);
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
