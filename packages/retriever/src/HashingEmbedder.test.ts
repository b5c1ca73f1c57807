import { HashingEmbedder } from './HashingEmbedder';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('HashingEmbedder', () => {
  it('is deterministic, unit-length and of the configured size', async () => {
    const e = new HashingEmbedder({ dimensions: 64 });
    const [a, b] = await e.embed(['The director was born in Hungary.', 'The director was born in Hungary.']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(64);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 10);
  });

  it('places texts sharing stemmed words closer than unrelated texts', async () => {
    const e = new HashingEmbedder();
    const [q, near, far] = await e.embed(['films directed by Ilse Varga', 'Ilse Varga directs a film', 'copper mining in Chile']);
    expect(cosine(q!, near!)).toBeGreaterThan(cosine(q!, far!) + 0.3);
  });

  it('gives an empty text the zero vector', async () => {
    expect((await new HashingEmbedder({ dimensions: 8 }).embed(['the of and']))[0]).toEqual(new Array(8).fill(0));
  });

  it('names its settings in its id, so the manifest can tell embedders apart', () => {
    expect(new HashingEmbedder().id).not.toBe(new HashingEmbedder({ dimensions: 128 }).id);
    expect(new HashingEmbedder({ bigrams: true }).id).toMatch(/bigrams/);
  });
});
