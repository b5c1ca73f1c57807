/** The MAPGRPO stages in training order (opera.md, Mechanism 2): stage k samples with stages < k fixed. */
export const MAPGRPO_STAGES = [
  { stage: 1, role: 'opera-plan', agent: 'Plan Agent' },
  { stage: 2, role: 'opera-analysis-answer', agent: 'Analysis-Answer Agent' },
  { stage: 3, role: 'opera-rewrite', agent: 'Rewrite Agent' },
] as const;

export type MapgrpoRole = (typeof MAPGRPO_STAGES)[number]['role'];

export interface AdvantageOptions {
  /** Divide by the group's standard deviation (GRPO's usual form); off gives reward minus group mean. */
  scaleByStd?: boolean;
  /** Added to the std so a group of equal rewards gets advantages of 0, not NaN. */
  epsilon?: number;
}

/**
 * GRPO group-relative advantages (opera.md, eq. 2): each candidate's reward minus the mean
 * reward of its group, optionally over the group's (population) standard deviation. Within a
 * group they sum to zero, so the policy is pushed only towards what beat its own siblings.
 */
export function groupAdvantages(rewards: readonly number[], options: AdvantageOptions = {}): number[] {
  if (rewards.length === 0) return [];
  // A group whose candidates all scored the same carries no signal; floating-point noise in the mean must not invent one.
  if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const centred = rewards.map((r) => r - mean);
  if (!options.scaleByStd) return centred;
  const std = Math.sqrt(centred.reduce((a, c) => a + c * c, 0) / rewards.length);
  return centred.map((c) => c / (std + (options.epsilon ?? 1e-6)));
}
