import { definePrompt } from '@multihop/prompts';
import { z } from 'zod';

// The learning loop's prompts (hera.md Appendix B: "Experience Library Operations", "RoPE:
// contrastive analysis"; IDENTIFYFAILEDAGENTS of Algorithm 1 line 8 has no prompt in the paper,
// its wording is this project's). Each has its own role, so the offline model answers each.

function list(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '(none)';
  return value.map((v) => `- ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
}

export const heraLibraryOpsSchema = z.object({
  operations: z.array(
    z.object({
      operation: z.enum(['ADD', 'MERGE', 'PRUNE', 'KEEP']),
      new_insight: z.string(),
      target_entry_ids: z.array(z.string()).default([]),
      merged_insight: z.string().nullable().default(null),
      rationale: z.string().default(''),
    }),
  ),
});
export type HeraLibraryOps = z.infer<typeof heraLibraryOpsSchema>;

/** ExperienceLibraryUpdate (Algorithm 3; Appendix B "Experience Library Operations"). */
export const heraLibraryPrompt = definePrompt({
  id: 'hera.library',
  role: 'hera-library',
  version: '1',
  description: 'HERA experience library update (Algorithm 3): ADD, MERGE, PRUNE or KEEP for each new insight.',
  system: 'You are managing an experience library for a multi-agent question answering system. The library stores insights as structured entries of the form (query_profile c, insight z, utility u), where utility u reflects how often insight z has led to successful agent orchestration.',
  template: [
    'Current experience library (id, query type, insight, utility):',
    '{{memory}}',
    '',
    'Query profile of the latest execution group: {{analysis}}',
    'New insights extracted from the latest execution group:',
    '{{trajectory}}',
    '',
    'For each new insight, decide the appropriate consolidation operation:',
    '- ADD: Insert a distinct insight not covered by existing entries.',
    '- MERGE: Combine semantically similar or complementary insights into a single, more complete entry.',
    '- PRUNE: Remove a lower-utility entry that conflicts with a higher-utility one.',
    '- KEEP: Retain the current library without modification.',
    '',
    'Guidelines:',
    '- Prefer MERGE over ADD when insights share the same query type and recommend compatible strategies.',
    '- Prefer PRUNE when entries provide contradictory guidance for the same query type and differ substantially in utility.',
    '- Avoid unbounded growth: consolidate aggressively to maintain generalizability.',
    '',
    'Respond in JSON: {"operations": [{"operation": "ADD|MERGE|PRUNE|KEEP", "new_insight": "<text of new insight>", "target_entry_ids": ["<id of existing entry if MERGE or PRUNE>"], "merged_insight": "<combined insight text if MERGE, else null>", "rationale": "<one sentence>"}]}',
  ].join('\n'),
  schema: heraLibraryOpsSchema,
  formatters: {
    memory: (value) =>
      Array.isArray(value) && value.length > 0
        ? value.map((e) => { const x = e as { id: string; query_type: string; insight: string; utility: number }; return `- [${x.id}] (${x.query_type}, u=${x.utility}) ${x.insight}`; }).join('\n')
        : '(empty)',
    trajectory: list,
  },
});

export const heraBlameSchema = z.object({
  agent: z.string().describe('The agent that contributed most to the failure.'),
  reason: z.string().default(''),
});

/** IDENTIFYFAILEDAGENTS (Algorithm 1 line 8; §3.4.1 "the primary contributor to the trajectory's failure"). */
export const heraBlamePrompt = definePrompt({
  id: 'hera.blame',
  role: 'hera-blame',
  version: '1',
  description: 'HERA orchestrator, IDENTIFYFAILEDAGENTS (Algorithm 1 line 8): the agent primarily responsible for a failed trajectory.',
  system: 'You are an orchestrator reviewing a failed multi-agent execution trajectory. Identify the single agent that was the primary contributor to the failure.',
  template: [
    'Query: {{question}}',
    'Expected answer: {{gold}}',
    'Answer produced: {{prediction}} ({{analysis}})',
    '',
    'Topology:',
    '{{plan}}',
    '',
    'Steps (agent and output):',
    '{{steps}}',
    '',
    'Passages the trajectory gathered:',
    '{{passages}}',
    '',
    'Which agent of the trajectory is the primary contributor to the failure? Respond in JSON: {"agent": "<agent name>", "reason": "<one sentence>"}',
  ].join('\n'),
  schema: heraBlameSchema,
  formatters: { steps: list, passages: (v) => (Array.isArray(v) && v.length > 0 ? v.map((p) => { const x = p as { title?: string; text?: string }; return `- ${x.title ?? ''}: ${(x.text ?? '').slice(0, 300)}`; }).join('\n') : '(none)') },
});

export const heraContrastSchema = z.object({
  operational_rules: z.array(z.object({ rule: z.string().min(1), derived_from: z.string().default('') })).default([]),
  behavioral_principles: z.array(z.object({ principle: z.string().min(1), derived_from: z.string().default('') })).default([]),
  updated_prompt: z.string().default(''),
});
export type HeraContrast = z.infer<typeof heraContrastSchema>;

/** RoPE contrastive analysis (Algorithm 5 lines 13–15; Appendix B "RoPE: contrastive analysis"). */
export const heraContrastPrompt = definePrompt({
  id: 'hera.rope-contrast',
  role: 'hera-rope',
  version: '1',
  description: 'HERA RoPE (Algorithm 5): operational rules and behavioral principles from the re-executions of a failing agent with prompt variants.',
  system: 'You are analyzing the results of prompt variant re-executions for a failing agent to extract concrete prompt improvements.',
  template: [
    'The failing agent (name, role, original prompt, F1 of the original trajectory):',
    '{{plan}}',
    '',
    'Recent failed trajectories of this agent:',
    '{{memory}}',
    '',
    'Variant execution results (axis, variant prompt, re-executed trajectory, F1, tokens):',
    '{{candidates}}',
    '',
    'Perform a contrastive analysis between successful and failed variants:',
    '1. Operational rules: short-term corrective behaviors, specific, concrete instructions that directly address the observed failure pattern, actionable in the agent\'s very next execution.',
    '2. Behavioral principles: long-term strategic generalizations distilled from patterns across multiple trajectories.',
    '',
    'Respond in JSON: {"operational_rules": [{"rule": "<concrete instruction>", "derived_from": "<which variant comparison>"}], "behavioral_principles": [{"principle": "<strategic guidance>", "derived_from": "<pattern>"}], "updated_prompt": "<full revised prompt>"}',
  ].join('\n'),
  schema: heraContrastSchema,
  formatters: { memory: list, candidates: list },
});

export const HERA_EVOLVE_PROMPTS = [heraLibraryPrompt, heraBlamePrompt, heraContrastPrompt] as const;
