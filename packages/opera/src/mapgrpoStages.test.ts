import fc from 'fast-check';
import { groupAdvantages } from '@multihop/core';
import { MAPGRPO_STAGES } from './mapgrpoStages';

describe('GRPO group-relative advantages (core) as OPERA uses them', () => {
  it('is reward minus the group mean (the paper’s worked example: 0.7 in [0.3, 0.5, 0.7, 0.9] → 0.1)', () => {
    const advantages = groupAdvantages([0.3, 0.5, 0.7, 0.9]);
    expect(advantages.map((a) => Number(a.toFixed(10)))).toEqual([-0.3, -0.1, 0.1, 0.3]);
  });

  it('optionally divides by the group standard deviation, and gives zeros to a group of equal rewards', () => {
    const scaled = groupAdvantages([0.3, 0.5, 0.7, 0.9], { scaleByStd: true });
    expect(scaled[2]).toBeCloseTo(0.1 / Math.sqrt(0.05), 4);
    expect(groupAdvantages([0.4, 0.4, 0.4], { scaleByStd: true })).toEqual([0, 0, 0]);
    expect(groupAdvantages([])).toEqual([]);
  });

  it('sums to zero within any group', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 16 }), fc.boolean(), (rewards, scaleByStd) => {
        const sum = groupAdvantages(rewards, { scaleByStd }).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum)).toBeLessThan(1e-6);
      }),
    );
  });

  it('orders the stages Plan → Analysis-Answer → Rewrite', () => {
    expect(MAPGRPO_STAGES.map((s) => s.role)).toEqual(['opera-plan', 'opera-analysis-answer', 'opera-rewrite']);
  });
});
