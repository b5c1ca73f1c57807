import type { DatasetRow, LambdaRow } from './routerFile';
import { chooseRow, preferred } from './trainRouter';

// Hand-made rows of a λ × L2 study over two training datasets, each with its best single workflow.
const on = (dataset: string, quality: number, tokens: number, bestQuality: number, bestTokens: number): DatasetRow => ({
  dataset, quality, tokens, best: 'w', bestQuality, bestTokens, met: quality >= bestQuality && tokens <= bestTokens,
});
const row = (lambda: number, datasets: DatasetRow[]): LambdaRow => ({
  lambda, l2: 30, quality: datasets.reduce((s, d) => s + d.quality, 0) / datasets.length, tokens: datasets.reduce((s, d) => s + d.tokens, 0) / datasets.length, datasets,
});

describe('choosing λ and L2 dataset by dataset', () => {
  // Within the best single workflow's tokens on both datasets, 0.02 below it on each (summed −0.04).
  const close = row(0.05, [on('a', 0.48, 900, 0.5, 4000), on('b', 0.28, 800, 0.3, 6000)]);
  // Meets dataset a exactly, but 0.07 below on b (summed −0.07): a count of datasets met would prefer it.
  const oneTie = row(0.02, [on('a', 0.5, 1000, 0.5, 4000), on('b', 0.23, 900, 0.3, 6000)]);
  // Better on both, but over dataset a's best single workflow's tokens.
  const costly = row(0, [on('a', 0.55, 4100, 0.5, 4000), on('b', 0.31, 5000, 0.3, 6000)]);

  it('prefers staying within the tokens on more datasets, then the larger summed margin', () => {
    expect(preferred(close, costly)).toBe(true);
    expect(preferred(costly, close)).toBe(false);
    expect(preferred(close, oneTie)).toBe(true);
    expect(preferred(oneTie, close)).toBe(false);
  });

  it('breaks a tie in margin by fewer tokens, then by the larger λ', () => {
    const cheaper = { ...close, lambda: 0.01, tokens: close.tokens - 1 };
    expect(preferred(cheaper, close)).toBe(true);
    const larger = { ...close, lambda: 0.1 };
    expect(preferred(larger, close)).toBe(true);
    expect(preferred(close, larger)).toBe(false);
  });

  it('with λ given, takes L2 and the pool by the same rule among that λ\'s rows, not by correctness alone', () => {
    // Every candidate: more correct, but over dataset a's best single workflow's tokens; the front: within them.
    const all = { ...row(0.01, [on('a', 0.5, 4100, 0.5, 4000), on('b', 0.3, 900, 0.3, 6000)]), pool: 'all' as const };
    const front = { ...row(0.01, [on('a', 0.49, 1200, 0.5, 4000), on('b', 0.3, 800, 0.3, 6000)]), pool: 'front' as const };
    const elsewhere = { ...close, lambda: 0.05, pool: 'front' as const };
    expect(all.quality).toBeGreaterThan(front.quality);
    expect(chooseRow([all, front, elsewhere], 0.01)).toBe(front);
    expect(chooseRow([all, front, elsewhere])).toBe(front);
  });
});
