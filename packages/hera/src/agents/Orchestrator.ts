import type { RunContext } from '@multihop/core';
import type { Prompt } from '@multihop/prompts';
import type { QueryProfile, RetrievedExperience } from '../experience';
import { heraOrchestratePrompt, heraProfilePrompt, heraRepairPrompt } from '../prompts';
import type { RawTopology, TopologyProblem } from '../topology';

type PromptFor = <P extends Prompt<unknown>>(prompt: P) => P;

const describeProfile = (p: QueryProfile) => `${p.query_type}, ${p.complexity}: ${p.profile}`;

/** CHARACTERIZEQUERY: the query's profile c (type and complexity), which the library is searched by. */
export async function characterizeQuery(ctx: RunContext, promptFor: PromptFor, question: string): Promise<QueryProfile> {
  const { output } = await ctx.model.call({ prompt: promptFor(heraProfilePrompt), vars: { question } });
  return output;
}

/** Γ ~ π_O(· | q, E_rel, N): the orchestrator's topology for the query, as written. */
export async function sampleTopology(
  ctx: RunContext,
  promptFor: PromptFor,
  question: string,
  profile: QueryProfile,
  experiences: readonly RetrievedExperience[],
  sample?: number,
): Promise<RawTopology> {
  // `sample` (group rollouts): the index keeps the calls' cache keys apart; a real model samples at
  // the temperature the learning loop's port gives samples 1…G−1 (core's candidateModel), the
  // offline model, which ignores temperatures, draws a seeded alternative topology from `sample`.
  const vars = { question, analysis: describeProfile(profile), memory: experiences, ...(sample ? { sample } : {}) };
  const { output } = await ctx.model.call({ prompt: promptFor(heraOrchestratePrompt), vars });
  return output;
}

/** The repair round: the rejected topology and its problems, for one corrected topology. */
export async function repairTopology(
  ctx: RunContext,
  promptFor: PromptFor,
  question: string,
  profile: QueryProfile,
  experiences: readonly RetrievedExperience[],
  rejected: RawTopology,
  problems: readonly TopologyProblem[],
): Promise<RawTopology> {
  const { output } = await ctx.model.call({
    prompt: promptFor(heraRepairPrompt),
    vars: { question, analysis: describeProfile(profile), memory: experiences, plan: rejected, problems: problems.map((p) => p.message) },
  });
  return output;
}
