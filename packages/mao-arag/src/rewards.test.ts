import type { RunResult } from '@multihop/core';
import { costPenalty, maoReward, runCost } from './rewards';

describe('R = F1 − α·CP − FP', () => {
  const scale = { tokens: 1000, turns: 5, retrievals: 4 };

  it('normalises each currency against the costliest valid workflow, clips it to [0, 1], and sums them with equal weights', () => {
    expect(costPenalty({ tokens: 500, turns: 1, retrievals: 1 }, scale)).toEqual({ tokens: 0.5, turns: 0.2, retrievals: 0.25, total: 0.95 });
    expect(costPenalty({ tokens: 4000, turns: 5, retrievals: 9 }, scale)).toEqual({ tokens: 1, turns: 1, retrievals: 1, total: 3 });
  });

  it('charges α·CP and the format penalty, F1 by the official rules (max over the gold answers)', () => {
    const reward = maoReward({ prediction: 'the Stephen King', gold: ['Steve King', 'Stephen King'], cost: { tokens: 500, turns: 1, retrievals: 1 }, scale, alpha: 0.1, formatPenalty: 0 });
    expect(reward.components).toMatchObject({ f1: 1, cost: 0.95, format_penalty: 0 });
    expect(reward.total).toBeCloseTo(1 - 0.095, 6);
    expect(reward.weights).toEqual({ f1: 1, cost: -0.1, format_penalty: -1 });
    const invalid = maoReward({ prediction: 'Stephen', gold: ['Stephen King'], cost: { tokens: 0, turns: 1, retrievals: 0 }, scale, alpha: 0.2, formatPenalty: 1 });
    expect(invalid.components['f1']).toBeCloseTo(2 / 3, 6);
    expect(invalid.total).toBeCloseTo(2 / 3 - 0.2 * 0.2 - 1, 6);
  });

  it('charges the executors’ tokens, not the planner’s (as the authors’ code records only the executors’ token cost)', () => {
    const role = (promptTokens: number, completionTokens: number) => ({ calls: 1, promptTokens, completionTokens, estimated: true, cachedCalls: 0 });
    const usage = {
      llmCalls: 3,
      promptTokens: 900,
      completionTokens: 100,
      retrievalCalls: 2,
      estimated: true,
      byRole: { 'mao-arag-planner': role(220, 20), 'mao-arag-ag': role(500, 50), 'mao-arag-qr': role(180, 30) },
    } as unknown as RunResult['usage'];
    expect(runCost({ usage, data: { turns: 2 } })).toEqual({ tokens: 1000 - 240, turns: 2, retrievals: 2 });
    // A run with no planner call (a learned policy, a fixed workflow) pays for every call it made.
    const { 'mao-arag-planner': _planner, ...executors } = usage.byRole;
    expect(runCost({ usage: { ...usage, promptTokens: 680, completionTokens: 80, byRole: executors }, data: { turns: 1 } }).tokens).toBe(760);
  });
});
