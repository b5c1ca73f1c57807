import { definePrompt } from '@multihop/prompts';
import { z } from 'zod';
import { queryProfileSchema } from './experience';

// HERA's prompts (hera.md Appendix B for the orchestrator and the reflection; the agents' wording
// is this project's, the paper gives only their names). One prompt per role, each with the zod
// schema its replies must satisfy. Bump `version` when the wording or the schema changes.

const ORCHESTRATOR = 'You lead a team of agents that answer questions needing several retrieval hops.';
const LESSONS = 'Lessons recorded from earlier runs on similar questions:';

const AGENT_DESCRIPTIONS = [
  '- Query Decomposer: splits the query into sub-questions; a later sub-question names an earlier answer as "[answer from step N]".',
  '- Retriever: searches the corpus (top-5 passages) for the query, or for the sub-questions it is given.',
  '- Answer Generator: answers the query, or the sub-questions it is given, from the passages received.',
  '- Query Rewriter: rewrites the query into a precise search query.',
  '- Evidence Selector: keeps only the passages that help answer the query.',
  '- Context Validator: checks whether the passages suffice; when not, names the missing fact as a search for a following Retriever.',
  '- Conclude Agent: gives the final answer from every answer and passage received.',
].join('\n');

const TOPOLOGY_FORMAT = [
  'Reply with one JSON object of this shape:',
  '{"query_profile": "<what kind of question this is, in one sentence>", "selected_agents": ["<agent>", ...],',
  ' "execution_order": [{"step": 1, "agent": "<agent>", "depends_on": []}, ...], "mode": "sequential|parallel"}',
  'Steps that do not depend on each other run in parallel; a step runs after every step it depends on.',
].join('\n');

function formatExperiences(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '(none)';
  return value
    .map((e) => {
      const x = e as { query_type?: string; insight?: string; utility?: number };
      return `- Query Type: ${x.query_type ?? '?'}\n  Insight: ${x.insight ?? String(e)}\n  Utility score: ${x.utility ?? 0}`;
    })
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Orchestrator

/** CHARACTERIZEQUERY (Algorithm 3 line 1, Algorithm 4 line 1): the profile c the library is searched by. */
export const heraProfilePrompt = definePrompt({
  id: 'hera.profile',
  // Its own role: the offline model answers one prompt schema per role (the orchestrator's is the topology).
  role: 'hera-profiler',
  version: '2',
  description: 'HERA orchestrator, CHARACTERIZEQUERY (Algorithm 4 line 1): the query’s reasoning type and complexity.',
  system: ORCHESTRATOR,
  template: [
    'Characterize the query below.',
    'Reasoning types: bridge (a chain through an intermediate entity), intersection (several constraints on one answer), comparison (an attribute compared across entities), temporal (ordering or containment in time), causal (a cause-effect chain), ambiguous (several plausible readings), single-hop (one fact).',
    'Complexity: easy, medium or hard.',
    '',
    'Query: {{question}}',
  ].join('\n'),
  schema: queryProfileSchema,
});

const topologyStepSchema = z.object({
  step: z.union([z.number(), z.string()]).describe('The step number.'),
  agent: z.string().describe('The agent that runs this step.'),
  depends_on: z.array(z.union([z.number(), z.string()])).default([]).describe('The steps whose output this step needs.'),
  query: z.string().optional().describe('Optional: the sub-question this step works on.'),
});

export const heraTopologySchema = z.object({
  query_profile: z.string().default('').describe('One-sentence characterization of the query type.'),
  selected_agents: z.array(z.string()).default([]),
  execution_order: z.array(topologyStepSchema),
  mode: z.string().default('sequential').describe('sequential or parallel'),
});
export type HeraTopologyReply = z.infer<typeof heraTopologySchema>;

/** Topology sampling (Algorithm 4 line 8; Appendix B "Orchestrator: topology sampling"). */
export const heraOrchestratePrompt = definePrompt({
  id: 'hera.orchestrate',
  role: 'hera-orchestrator',
  version: '2',
  description: 'HERA orchestrator (§3.1, Algorithm 4): an agent topology Γ for the query, conditioned on retrieved experiences.',
  system: `${ORCHESTRATOR} Decide which of them run on this question, in what order and on whose output, so that the team gets the answer right.`,
  template: [
    'Agents you can call:',
    AGENT_DESCRIPTIONS,
    '',
    LESSONS,
    '{{memory}}',
    '',
    'Profile of the question: {{analysis}}',
    '',
    'Lay out the team for the question below:',
    '1. Call only the agents that this kind of question needs.',
    '2. Put them in order; steps that do not wait for each other may run side by side.',
    '3. For each step, name the earlier steps whose output it takes.',
    '',
    'Query: {{question}}',
    '',
    TOPOLOGY_FORMAT,
  ].join('\n'),
  schema: heraTopologySchema,
  formatters: { memory: formatExperiences },
});

/** The repair round: the invalid topology and its problems, for one corrected topology. */
export const heraRepairPrompt = definePrompt({
  id: 'hera.repair',
  role: 'hera-orchestrator',
  version: '2',
  description: 'HERA orchestrator, repair round: a corrected topology after validation rejected one (known agents, no cycles, no missing steps).',
  system: ORCHESTRATOR,
  template: [
    'Agents you can call:',
    AGENT_DESCRIPTIONS,
    '',
    LESSONS,
    '{{memory}}',
    '',
    'Profile of the question: {{analysis}}',
    'Query: {{question}}',
    '',
    'Your topology cannot run:',
    '{{plan}}',
    '',
    'Problems:',
    '{{problems}}',
    '',
    'Give a corrected topology: only the agents listed, every depends_on naming an earlier step, no step depending on itself or in a loop.',
    '',
    TOPOLOGY_FORMAT,
  ].join('\n'),
  schema: heraTopologySchema,
  formatters: { memory: formatExperiences },
});

// ---------------------------------------------------------------------------------------------
// Execution agents

export const heraDecomposePrompt = definePrompt({
  id: 'hera.decompose',
  role: 'hera-decomposer',
  version: '1',
  description: 'HERA Query Decomposer: at most {{count}} sub-questions; a later one names an earlier answer as "[answer from step N]".',
  system: 'You are the Query Decomposer of a multi-agent question answering team.',
  template: [
    'Split the query into at most {{count}} simple sub-questions, in the order they must be answered.',
    'When a sub-question needs the answer of an earlier one, write that answer as "[answer from step N]".',
    'Sub-questions about different entities that do not need each other are independent.',
    '',
    'Query: {{question}}',
  ].join('\n'),
  schema: z.object({ subQuestions: z.array(z.string()).min(1).describe('The sub-questions, in order.') }),
});

export const heraRetrievePrompt = definePrompt({
  id: 'hera.retrieve',
  role: 'hera-retriever',
  version: '1',
  description: 'HERA Retriever: the search it sends to the corpus (top-5) for the (sub-)question it is given.',
  system: 'You are the Retriever of a multi-agent question answering team; you search a Wikipedia corpus.',
  template: ['Query: {{question}}', 'Find passages for: {{subGoal}}', '', 'Write one keyword search for the passages that answer it.'].join('\n'),
  schema: z.object({ query: z.string().min(1).describe('The search sent to the corpus.') }),
});

export const heraRewritePrompt = definePrompt({
  id: 'hera.rewrite',
  role: 'hera-rewriter',
  version: '1',
  description: 'HERA Query Rewriter: the query rewritten into one precise search query.',
  system: 'You are the Query Rewriter of a multi-agent question answering team.',
  template: ['Query: {{question}}', 'Current search: {{query}}', '', 'Rewrite it into one short, precise search query that keeps every entity name.'].join('\n'),
  schema: z.object({ query: z.string().min(1).describe('The rewritten search query.') }),
});

export const heraSelectPrompt = definePrompt({
  id: 'hera.select',
  role: 'hera-selector',
  version: '1',
  description: 'HERA Evidence Selector: the indices of the passages that help answer the query.',
  system: 'You are the Evidence Selector of a multi-agent question answering team.',
  template: ['Query: {{question}}', '', 'Candidate passages (index, title, text):', '{{candidates}}', '', 'Keep the passages that help answer the query; list their indices.'].join('\n'),
  schema: z.object({ keep: z.array(z.number().int().min(0)).describe('Indices of the passages kept.') }),
});

export const heraValidatePrompt = definePrompt({
  id: 'hera.validate',
  role: 'hera-validator',
  version: '1',
  description: 'HERA Context Validator: whether the passages suffice to answer, and the missing fact as a search when not.',
  system: 'You are the Context Validator of a multi-agent question answering team.',
  template: ['Query: {{question}}', '', 'Passages:', '{{passages}}', '', 'Do the passages contain every fact the answer needs? If not, write the missing fact as one search query.'].join('\n'),
  schema: z.object({
    sufficient: z.boolean().describe('Whether the passages suffice.'),
    missing: z.string().default('').describe('The missing fact as a search query; empty when sufficient.'),
  }),
});

export const heraAnswerPrompt = definePrompt({
  id: 'hera.answer',
  role: 'hera-answerer',
  version: '2',
  description: 'HERA Answer Generator: a short answer to the (sub-)question from the passages and earlier answers.',
  system: 'You are the Answer Generator of a multi-agent question answering team. Answer briefly: an entity, a date, a number, or yes/no.',
  template: ['Query: {{question}}', 'Answer this: {{subGoal}}', '', 'Answers found so far:', '{{trajectory}}', '', 'Passages:', '{{passages}}'].join('\n'),
  schema: z.object({ answer: z.string().describe('A short answer.') }),
});

export const heraConcludePrompt = definePrompt({
  id: 'hera.conclude',
  role: 'hera-conclude',
  version: '1',
  description: 'HERA Conclude Agent: the final answer from the sub-answers, candidate answers and passages.',
  system: 'You are the Conclude Agent of a multi-agent question answering team. Give the final answer briefly: an entity, a date, a number, or yes/no.',
  template: ['Query: {{question}}', '', 'Sub-questions and answers, and candidate answers:', '{{trajectory}}', '', 'Passages:', '{{passages}}'].join('\n'),
  schema: z.object({ answer: z.string().describe('The final answer.') }),
});

// ---------------------------------------------------------------------------------------------
// Reflect Agent: the learning loop's group reflection (Algorithm 2 line 13; Appendix B
// "Orchestrator: Semantic Advantage Extraction"). Defined now; `multihop evolve` will call it.

export const heraReflectSchema = z.object({
  success_factors: z.array(z.string()).default([]),
  failure_modes: z.array(z.string()).default([]),
  insights: z.array(z.object({ query_type: z.string(), insight: z.string().min(1) })).describe('Actionable insights for future queries of the same type.'),
});
export type HeraReflection = z.infer<typeof heraReflectSchema>;

export const heraReflectPrompt = definePrompt({
  id: 'hera.reflect',
  role: 'hera-reflect',
  version: '3',
  description: 'HERA Reflect Agent (Algorithm 2, REFLECTONGROUP): insights from a group of runs ranked by F1 then tokens.',
  system: 'Several agent teams answered the same question, some rightly and some not. Work out what set the good runs apart, and write it down as advice for planning teams on similar questions.',
  template: [
    'Query: {{question}}',
    'Question type: {{analysis}}',
    'A run succeeded when its F1 is at least {{successF1}}.',
    '',
    'The runs, best first (higher F1, then fewer tokens); each shows its team layout, what every agent produced, its final answer, F1 and tokens:',
    '{{trajectory}}',
    '',
    'Compare the runs with each other:',
    '1. What did the better runs do that the worse ones did not?',
    '2. Which agents, step orders or dependencies made the difference?',
    '3. Which mistakes come back (say, the wrong agents, steps that add nothing, reasoning before anything was retrieved)?',
    '4. Put each finding as a short, concrete piece of advice for later questions of this kind.',
  ].join('\n'),
  schema: heraReflectSchema,
});

export const HERA_PROMPTS = [
  heraProfilePrompt,
  heraOrchestratePrompt,
  heraRepairPrompt,
  heraDecomposePrompt,
  heraRetrievePrompt,
  heraRewritePrompt,
  heraSelectPrompt,
  heraValidatePrompt,
  heraAnswerPrompt,
  heraConcludePrompt,
  heraReflectPrompt,
] as const;
