import type { ModelPort } from '@multihop/core';
import { heraReflectPrompt, type HeraReflection } from '../prompts';
import type { QueryProfile } from '../experience';
import type { Topology } from '../topology';

/** One run of a rollout group as the Reflect Agent reads it (Algorithm 2's (Γ_i, τ_i, r_task, r_eff)). */
export interface GroupRun {
  topology: Topology;
  answer: string;
  f1: number;
  tokens: number;
  /** Per-agent outputs, for the reflection to point at. */
  steps?: Array<{ step: string; agent: string; output: string }>;
}

/**
 * Algorithm 2, lines 9–13: a group without both a success and a failure carries no semantic
 * advantage (null, no call); otherwise the runs sorted by (F1 ↓, tokens ↑) are reflected on.
 * For the learning loop (`multihop evolve`, next); no workflow calls it.
 */
export async function reflectOnGroup(model: ModelPort, question: string, group: readonly GroupRun[], successF1 = 1, profile?: QueryProfile): Promise<HeraReflection | null> {
  const succeeded = group.some((r) => r.f1 >= successF1);
  const failed = group.some((r) => r.f1 < successF1);
  if (!succeeded || !failed) return null;
  const ranked = [...group].sort((a, b) => b.f1 - a.f1 || a.tokens - b.tokens);
  const analysis = profile ? `${profile.query_type}, ${profile.complexity}: ${profile.profile}` : 'not characterised';
  const { output } = await model.call({ prompt: heraReflectPrompt, vars: { question, analysis, successF1, trajectory: ranked }, role: heraReflectPrompt.role });
  return output;
}
