import { sliceWhole } from '@multihop/core';
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
  version: '2',
  description: 'HERA experience library update (Algorithm 3): ADD, MERGE, PRUNE or KEEP for each new insight.',
  system: 'You keep the lesson library of a team of question-answering agents. Each entry holds the kind of question it applies to (its profile c), the lesson (z) and a utility count (u): how many successful team plans used the lesson.',
  template: [
    'The library now (id, question type, lesson, utility):',
    '{{memory}}',
    '',
    'Profile of the question just run: {{analysis}}',
    'Lessons drawn from those runs:',
    '{{trajectory}}',
    '',
    'Choose one operation for each new lesson:',
    '- ADD: it says something no entry says yet; store it as a new entry.',
    '- MERGE: it overlaps or completes existing entries; fold them into one fuller entry.',
    '- PRUNE: it or an entry contradicts another entry; drop the one with the lower utility.',
    '- KEEP: leave the library as it is.',
    '',
    'Rules of thumb:',
    '- The same question type and advice that fits together: MERGE rather than ADD.',
    '- The same question type, opposite advice and clearly different utilities: PRUNE the weaker entry.',
    '- Keep the library small and general, merging whenever you can.',
    '',
    'Reply with JSON: {"operations": [{"operation": "ADD|MERGE|PRUNE|KEEP", "new_insight": "<the new lesson>", "target_entry_ids": ["<ids of the entries merged or pruned>"], "merged_insight": "<the merged text for MERGE, else null>", "rationale": "<why, in one sentence>"}]}',
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
  version: '2',
  description: 'HERA orchestrator, IDENTIFYFAILEDAGENTS (Algorithm 1 line 8): the agent primarily responsible for a failed trajectory.',
  system: 'You lead a team of question-answering agents, and one of its runs gave a wrong answer. Find the one agent that did most to make it fail.',
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
    'Which agent of this run is most to blame for the wrong answer? Reply with JSON: {"agent": "<agent name>", "reason": "<one sentence>"}',
  ].join('\n'),
  schema: heraBlameSchema,
  formatters: { steps: list, passages: (v) => (Array.isArray(v) && v.length > 0 ? v.map((p) => { const x = p as { title?: string; text?: string }; return `- ${x.title ?? ''}: ${sliceWhole(x.text ?? '', 300)}`; }).join('\n') : '(none)') },
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
  version: '2',
  description: 'HERA RoPE (Algorithm 5): operational rules and behavioral principles from the re-executions of a failing agent with prompt variants.',
  system: 'One agent of a question-answering team keeps failing. It was run again with several variants of its prompt; learn from the variants that helped and those that did not, and improve its prompt.',
  template: [
    'The agent (name, role, its prompt, F1 of the run it failed):',
    '{{plan}}',
    '',
    'Its latest failed runs:',
    '{{memory}}',
    '',
    'The variants (behavioral axis, prompt, the run again with it, F1, tokens):',
    '{{candidates}}',
    '',
    'Set the variants that did well against those that did not, and write:',
    '1. Operational rules: concrete fixes for the failure seen here, which the agent can follow on its very next run.',
    '2. Behavioral principles: broader guidance that holds across many of its runs.',
    '',
    'Reply with JSON: {"operational_rules": [{"rule": "<an instruction>", "derived_from": "<the comparison it comes from>"}], "behavioral_principles": [{"principle": "<guidance>", "derived_from": "<the pattern behind it>"}], "updated_prompt": "<the agent’s whole revised prompt>"}',
  ].join('\n'),
  schema: heraContrastSchema,
  formatters: { memory: list, candidates: list },
});

export const HERA_EVOLVE_PROMPTS = [heraLibraryPrompt, heraBlamePrompt, heraContrastPrompt] as const;
