import { createHash } from 'node:crypto';
import { loadDataset } from '@multihop/datasets';
import { HashingEmbedder } from './HashingEmbedder';
import { datasetsDir } from '../test/sharedData';

// sha256 (first 16 hex) of the vectors of every passage and sentence of the shared dev sets, as
// `${title}. ${text}` (what the store embeds), computed by the first implementation (md5 per term,
// Math.hypot over the vector) before it was made faster: stored corpora rely on identical vectors.
const GOLDEN: Record<string, Record<string, { float64: string; float32: string }>> = {
  'hotpotqa-dev': {
    'hashing-v1:512': { float64: 'fb57f99fd35c4822', float32: '8dca4a634f0dc28a' },
    'hashing-v1:64:bigrams': { float64: '97ec21cdf69aa0ac', float32: 'd430d1e9491619c4' },
  },
  '2wiki-dev': {
    'hashing-v1:512': { float64: 'f8b3f9e33dd232ca', float32: 'c9e2a380c0183976' },
    'hashing-v1:64:bigrams': { float64: '4c9722ad9eae4a92', float32: '363f2654a32afbf5' },
  },
  'musique-dev': {
    'hashing-v1:512': { float64: '04777b06e9a54d9c', float32: 'f25a0f2ad9a99f2c' },
    'hashing-v1:64:bigrams': { float64: '4582c5a15a3fb61a', float32: '583e8d9d8a6866be' },
  },
};

const bytes = (c: ArrayBufferView) => new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
const sha = (chunks: Iterable<ArrayBufferView>) => {
  const h = createHash('sha256');
  for (const c of chunks) h.update(bytes(c));
  return h.digest('hex').slice(0, 16);
};

describe('HashingEmbedder golden vectors', () => {
  it.each(Object.keys(GOLDEN))('gives every passage and sentence of %s the vectors of the first implementation, by embed and embedFloat32', async (name) => {
    const dataset = await loadDataset(name, { datasetsDir });
    const texts = dataset.passages.flatMap((p) => [`${p.title}. ${p.text}`, ...p.sentences.map((s) => `${p.title}. ${s}`)]);
    expect(texts.length).toBeGreaterThan(10_000);
    for (const options of [{}, { dimensions: 64, bigrams: true }]) {
      const embedder = new HashingEmbedder(options);
      const golden = GOLDEN[name]![embedder.id]!;
      // One pass per method, each vector hashed as it comes. embedFloat32 runs first, on the fresh
      // embedder (cold caches: every word is learnt), embed second, on the warm one (every word
      // cached): both methods and both cache states are held to the golden hashes.
      expect(sha([embedder.embedFloat32(texts)])).toBe(golden.float32);
      const float64 = createHash('sha256');
      const float32 = createHash('sha256');
      for (let i = 0; i < texts.length; i += 1000) {
        for (const v of await embedder.embed(texts.slice(i, i + 1000))) {
          float64.update(bytes(new Float64Array(v)));
          float32.update(bytes(new Float32Array(v)));
        }
      }
      expect(float64.digest('hex').slice(0, 16)).toBe(golden.float64);
      expect(float32.digest('hex').slice(0, 16)).toBe(golden.float32);
    }
  });
});
