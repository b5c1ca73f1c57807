import { UsageMeter, addUsage, estimateTokens, totalTokens } from './usage';

describe('UsageMeter', () => {
  it('accumulates calls per role and marks estimated counts', () => {
    const meter = new UsageMeter();
    meter.recordCall({ role: 'planner', model: 'm', promptTokens: 10, completionTokens: 5, estimated: false, cached: false, attempts: 1, latencyMs: 1 });
    meter.recordCall({ role: 'writer', model: 'm', promptTokens: 7, completionTokens: 3, estimated: true, cached: true, attempts: 1, latencyMs: 1 });
    meter.recordRetrieval(2);
    const u = meter.snapshot(42);
    expect(u.llmCalls).toBe(2);
    expect(u.promptTokens).toBe(17);
    expect(u.estimated).toBe(true);
    expect(u.byRole['planner']).toEqual({ calls: 1, promptTokens: 10, completionTokens: 5, estimated: false, cachedCalls: 0 });
    expect(u.byRole['writer']?.cachedCalls).toBe(1);
    expect(u.retrievalCalls).toBe(2);
    expect(u.wallMs).toBe(42);
    expect(addUsage(u, u).byRole['planner']?.calls).toBe(2);
    // Tokens are prompt plus completion, for a run and for each role.
    expect(totalTokens(u)).toBe(25);
    expect(meter.totalTokens).toBe(25);
    expect(totalTokens(u.byRole['writer']!)).toBe(10);
  });

  it('estimates about four characters per token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
