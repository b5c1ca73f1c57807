import { InputError, UsageMeter, type Usage } from '@multihop/core';
import fc from 'fast-check';
import { aggregateCost, percentile, summarizeLatency } from './cost';

function run(calls: Array<{ role: string; prompt: number; completion: number; estimated?: boolean }>, retrievals: number, wallMs: number): Usage {
  const meter = new UsageMeter();
  for (const c of calls) {
    meter.recordCall({ role: c.role, model: 'm', promptTokens: c.prompt, completionTokens: c.completion, estimated: c.estimated ?? false, cached: false, attempts: 1, latencyMs: 1 });
  }
  meter.recordRetrieval(retrievals);
  return meter.snapshot(wallMs);
}

describe('percentile (nearest rank)', () => {
  it('returns a measured value: the smallest with at least p% at or below it', () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 0)).toBe(15);
    expect(percentile(values, 30)).toBe(20); // rank ceil(1.5) = 2
    expect(percentile(values, 40)).toBe(20); // rank 2 exactly
    expect(percentile(values, 50)).toBe(35); // rank ceil(2.5) = 3
    expect(percentile(values, 95)).toBe(50);
    expect(percentile(values, 100)).toBe(50);
  });

  it('does not interpolate between two values', () => {
    expect(percentile([1, 100], 50)).toBe(1);
  });

  it('does not depend on the input order and does not sort it in place', () => {
    const values = [50, 15, 40, 20, 35];
    expect(percentile(values, 50)).toBe(35);
    expect(values).toEqual([50, 15, 40, 20, 35]);
  });

  it('rejects an empty list and p outside [0, 100]', () => {
    expect(() => percentile([], 50)).toThrow(InputError);
    expect(() => percentile([1], 101)).toThrow(InputError);
    expect(() => percentile([1], Number.NaN)).toThrow(InputError);
  });

  it('refuses a value that is not a finite number, naming it, rather than return a value that looks measured', () => {
    // Sorting with NaN scrambled the order: the median of these came out 3.
    expect(() => percentile([5, 4, Number.NaN, 3, 2, 1], 50)).toThrow(/value 2 is NaN/);
    expect(() => summarizeLatency([5, Number.POSITIVE_INFINITY, 1])).toThrow(InputError);
  });

  it('summarises hundreds of thousands of latencies (no argument spread)', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i);
    expect(summarizeLatency(many)).toMatchObject({ count: 300_000, max: 299_999, p50: 149_999 });
  });

  it('always returns one of the values, between min and max', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1 }), fc.double({ min: 0, max: 100, noNaN: true }), (xs, p) =>
        xs.includes(percentile(xs, p)),
      ),
    );
  });
});

describe('aggregateCost', () => {
  const usages = [
    run([{ role: 'planner', prompt: 100, completion: 20 }, { role: 'writer', prompt: 300, completion: 40 }], 2, 1000),
    run([{ role: 'writer', prompt: 200, completion: 30, estimated: true }], 1, 3000),
    run([{ role: 'planner', prompt: 50, completion: 10 }], 3, 2000),
  ];

  it('sums calls and tokens per role and retrieval calls', () => {
    const cost = aggregateCost(usages);
    expect(cost.runs).toBe(3);
    expect(cost.total.llmCalls).toBe(4);
    expect(cost.total.retrievalCalls).toBe(6);
    expect(cost.totalTokens).toBe(750);
    expect(cost.byRole).toEqual({
      planner: { calls: 2, promptTokens: 150, completionTokens: 30, totalTokens: 180, estimated: false, cachedCalls: 0 },
      writer: { calls: 2, promptTokens: 500, completionTokens: 70, totalTokens: 570, estimated: true, cachedCalls: 0 },
    });
    expect(cost.total.estimated).toBe(true);
    expect(cost.perRun).toEqual({ llmCalls: 4 / 3, totalTokens: 250, retrievalCalls: 2 });
  });

  it('summarises the runs’ wall time by default', () => {
    expect(aggregateCost(usages).latencyMs).toEqual({ count: 3, mean: 2000, p50: 2000, p95: 3000, max: 3000 });
  });

  it('summarises given latencies instead, e.g. per LLM call', () => {
    expect(aggregateCost(usages, { latenciesMs: [5, 1, 9, 3] }).latencyMs).toEqual({ count: 4, mean: 4.5, p50: 3, p95: 9, max: 9 });
  });

  it('gives zeros and no latency for no runs', () => {
    const cost = aggregateCost([]);
    expect(cost).toMatchObject({ runs: 0, totalTokens: 0, byRole: {}, perRun: { llmCalls: 0, totalTokens: 0, retrievalCalls: 0 }, latencyMs: null });
    expect(summarizeLatency([])).toBeNull();
  });
});
