import type { ModelPort } from '@multihop/core';
import type { Prompt } from '@multihop/prompts';
import { insightOverlap, type EvolvedPrompt } from '../experience';
import { heraAnswerPrompt, heraConcludePrompt, heraDecomposePrompt, heraRetrievePrompt, heraRewritePrompt, heraSelectPrompt, heraValidatePrompt } from '../prompts';
import type { ExecutionAgent } from '../topology';
import { heraContrastPrompt, type HeraContrast } from './prompts';

/** Each execution agent's role prompt ρ_i (the one RoPE evolves). */
export const AGENT_PROMPTS: Record<ExecutionAgent, Prompt<unknown>> = {
  'Query Decomposer': heraDecomposePrompt as Prompt<unknown>,
  Retriever: heraRetrievePrompt as Prompt<unknown>,
  'Answer Generator': heraAnswerPrompt as Prompt<unknown>,
  'Query Rewriter': heraRewritePrompt as Prompt<unknown>,
  'Evidence Selector': heraSelectPrompt as Prompt<unknown>,
  'Context Validator': heraValidatePrompt as Prompt<unknown>,
  'Conclude Agent': heraConcludePrompt as Prompt<unknown>,
};

/**
 * GENERATEVARIANT's axes (Algorithm 5 line 3 names efficiency, thoroughness, risk sensitivity;
 * §3.4.1 lists error correction and heuristic injection among the behavioral axes too). A variant is the current prompt with
 * the axis's directive appended; the bracketed tag names the axis (the offline agents read it).
 */
export const ROPE_AXES = {
  efficiency: '[efficiency] Do only what this step needs and keep the output short; do not repeat work an earlier agent did.',
  thoroughness: '[thoroughness] Cover every entity, title and constraint the query names, not only the current sub-question.',
  'risk sensitivity': '[risk sensitivity] When unsure, keep the evidence rather than drop it; never state an answer the passages do not support.',
  'error correction': '[error correction] Check the output against the query; when it does not answer the query, fall back to the query itself.',
  'heuristic injection': '[heuristic injection] Use the query\'s own words: copy names, dates and quoted titles verbatim.',
} as const;
export type RopeAxis = keyof typeof ROPE_AXES;
export const ROPE_AXIS_NAMES = Object.keys(ROPE_AXES) as RopeAxis[];

/** An agent's evolved prompt with the rules and principles it is made of (prompts.json keeps them). */
export interface RopePrompt extends EvolvedPrompt {
  rules: string[];
  principles: string[];
}

/** One failed trajectory in an agent's buffer B_i (Algorithm 5 line 1). */
export interface FailureRecord {
  questionId: string;
  question: string;
  answer: string;
  f1: number;
  reason: string;
  steps: Array<{ step: string; agent: string; output: string }>;
}

export interface VariantResult {
  axis: RopeAxis;
  system: string;
  answer: string;
  f1: number;
  tokens: number;
  steps: Array<{ step: string; agent: string; output: string }>;
}

/** A change RoPE accepted, with its evidence: one line of prompt-diffs.jsonl. */
export interface PromptDiff {
  promptId: string;
  agent: ExecutionAgent;
  generation: number;
  round: number;
  questionId: string;
  added: string[];
  removed: string[];
  before: string;
  after: string;
  evidence: { baselineF1: number; variants: Array<{ axis: RopeAxis; f1: number; tokens: number }>; failures: string[] };
}

/** ρ_i: the current system message of an agent's prompt (the evolved one when RoPE changed it). */
export function currentSystem(agent: ExecutionAgent, prompts: ReadonlyMap<string, RopePrompt>): string {
  const p = AGENT_PROMPTS[agent];
  return prompts.get(p.id)?.system ?? p.system ?? '';
}

/** GENERATEVARIANT(ρ_i, axis): the current prompt with the axis's directive. */
export function generateVariant(system: string, axis: RopeAxis): string {
  return `${system}\n${ROPE_AXES[axis]}`;
}

/**
 * Π_C (Algorithm 5 line 16; Appendix B "Agent Prompt Integration"'s constraints): the role's core
 * instructions (the base prompt's system message) kept verbatim, then at most K rules and
 * principles in all: new ones first, a new one replacing an old one it nearly repeats (content
 * overlap ≥ 0.6), the oldest dropped beyond K.
 */
export function consolidate(core: string, previous: Pick<RopePrompt, 'rules' | 'principles'> | undefined, delta: { rules: string[]; principles: string[] }, maxRules: number): { system: string; rules: string[]; principles: string[] } {
  const fresh = (items: string[], old: string[]) => {
    const kept: string[] = [];
    for (const x of [...items, ...old]) if (x.trim() && !kept.some((k) => insightOverlap(k, x) >= 0.6)) kept.push(x.trim());
    return kept;
  };
  let rules = fresh(delta.rules, previous?.rules ?? []);
  let principles = fresh(delta.principles, previous?.principles ?? []).filter((p) => !rules.some((r) => insightOverlap(r, p) >= 0.6));
  // K bounds rules and principles together; principles (long-term) keep at most half the room.
  principles = principles.slice(0, Math.floor(maxRules / 2));
  rules = rules.slice(0, Math.max(0, maxRules - principles.length));
  const lines = [core];
  if (rules.length > 0) lines.push('Operational rules:', ...rules.map((r) => `- ${r}`));
  if (principles.length > 0) lines.push('Behavioral principles:', ...principles.map((p) => `- ${p}`));
  return { system: lines.join('\n'), rules, principles };
}

/** EXTRACTOPERATIONALRULES and EXTRACTBEHAVIORALPRINCIPLES: the contrastive prompt over the variants' re-executions and the agent's buffer. */
export async function contrastVariants(model: ModelPort, agent: ExecutionAgent, original: string, baselineF1: number, buffer: readonly FailureRecord[], results: readonly VariantResult[]): Promise<HeraContrast> {
  const { output } = await model.call({
    prompt: heraContrastPrompt,
    vars: {
      plan: { agent_name: agent, agent_role: AGENT_PROMPTS[agent].system ?? '', original_prompt: original, baseline_f1: baselineF1 },
      memory: buffer.map((f) => ({ question: f.question, answer: f.answer, f1: f.f1, reason: f.reason })),
      candidates: results.map((r) => ({ axis: r.axis, variant_prompt: r.system, answer: r.answer, f1: r.f1, tokens: r.tokens, trajectory: r.steps })),
    },
  });
  return output;
}
