import { ConfigError, type Embedder } from '@multihop/core';
import { announceRetry } from './model';

const SPEC_HELP = 'hashing, hashing:<dimensions> or openai:<model>:<dimensions>';

/**
 * The runner's embedder for a spec: `hashing` or `hashing:<dimensions>` (@multihop/retriever's
 * offline lexical HashingEmbedder, 512 dimensions by default), or `openai:<model>:<dimensions>`
 * (any OpenAI-compatible endpoint: OPENAI_BASE_URL and OPENAI_API_KEY, as for the model; the
 * model name may itself hold colons, as Ollama's tags do). One embedder per spec and endpoint per process.
 */
export function resolveEmbedder(spec: string): Embedder {
  const key = `${spec}\u0000${process.env['OPENAI_BASE_URL'] ?? ''}`;
  const known = cache.get(key);
  if (known) return known;
  const embedder = build(spec);
  cache.set(key, embedder);
  return embedder;
}

const cache = new Map<string, Embedder>();

function build(spec: string): Embedder {
  const dimensionsOf = (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || n > 65_536) throw new ConfigError(`embedder "${spec}": dimensions must be a whole number from 1 to 65536, got "${text}"`);
    return n;
  };
  if (spec === 'hashing' || spec.startsWith('hashing:')) {
    const { HashingEmbedder } = require('@multihop/retriever') as typeof import('@multihop/retriever');
    return spec === 'hashing' ? new HashingEmbedder() : new HashingEmbedder({ dimensions: dimensionsOf(spec.slice('hashing:'.length)) });
  }
  if (spec.startsWith('openai:')) {
    const rest = spec.slice('openai:'.length);
    const cut = rest.lastIndexOf(':');
    if (cut <= 0) throw new ConfigError(`embedder "${spec}": expected openai:<model>:<dimensions>`);
    const { OpenAIEmbedder } = require('@multihop/provider-openai') as typeof import('@multihop/provider-openai');
    const baseURL = process.env['OPENAI_BASE_URL'] || undefined;
    return new OpenAIEmbedder({
      model: rest.slice(0, cut),
      dimensions: dimensionsOf(rest.slice(cut + 1)),
      ...(baseURL ? { baseURL } : {}),
      onRetry: (r) => announceRetry(`embedder ${r.provider}`, r),
    });
  }
  throw new ConfigError(`"${spec}" is not an embedder spec; expected ${SPEC_HELP}`);
}
