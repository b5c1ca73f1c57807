import type { TrainingStage } from '@multihop/core';

/** The MAPGRPO stages in training order (opera.md, Mechanism 2): stage k samples with stages < k fixed. */
export const MAPGRPO_STAGES = [
  { stage: 1, role: 'opera-plan', agent: 'Plan Agent' },
  { stage: 2, role: 'opera-analysis-answer', agent: 'Analysis-Answer Agent' },
  { stage: 3, role: 'opera-rewrite', agent: 'Rewrite Agent' },
] as const satisfies readonly TrainingStage[];

export type MapgrpoRole = (typeof MAPGRPO_STAGES)[number]['role'];
