import { z } from 'zod';
import { definePrompt } from '@multihop/prompts';

// OPERA (opera.md): a Goal Planning Module (Plan Agent) and a Reason-Execute Module
// (Analysis-Answer Agent, Rewrite Agent), plus a synthesis of the trajectory memory into the
// final answer. The wording is this project's own; the paper's roles and output fields are kept.

export const operaPlanSchema = z.object({
  subGoals: z
    .array(
      z.object({
        id: z.number().int().positive().describe('1-based step number.'),
        question: z.string().min(1).describe('One atomic, searchable sub-question; refer to an earlier answer as [entity from step N].'),
        dependsOn: z.array(z.number().int().positive()).describe('Step numbers whose answers this step needs.'),
      }),
    )
    .min(1),
});

/** Plan Agent (GPM): sub-goals with explicit placeholder dependencies (`[entity from step N]`). */
export const operaPlanPrompt = definePrompt({
  id: 'opera.plan',
  role: 'opera-plan',
  version: '1',
  description: 'OPERA Plan Agent (Goal Planning Module): decompose the question into ordered sub-goals with [entity from step N] placeholders.',
  system: 'You break multi-hop questions into the smallest chain of single-fact look-ups that answers them.',
  template: [
    'Question: {{question}}',
    '',
    'Write the sub-goals in the order they must be solved. Each sub-goal asks for exactly one fact that a search could find.',
    'When a sub-goal needs the answer of an earlier one, write a placeholder naming that step, such as [person from step 1] or [city from step 2], and list the step in dependsOn.',
    'Never refer to a later step or to the step itself. A question that needs a single fact is one sub-goal; the last sub-goal yields the final answer.',
  ].join('\n'),
  schema: operaPlanSchema,
});

/** Plan repair: one more chance for a plan that failed validation, told what was wrong with it. */
export const operaPlanRepairPrompt = definePrompt({
  id: 'opera.plan-repair',
  role: 'opera-plan',
  version: '1',
  description: 'OPERA Plan Agent, repair round: fix a plan whose placeholders or dependencies failed validation.',
  system: 'You break multi-hop questions into the smallest chain of single-fact look-ups that answers them.',
  template: [
    'Question: {{question}}',
    '',
    'This plan was rejected:',
    '{{plan}}',
    '',
    'Problems found:',
    '{{problems}}',
    '',
    'Write a corrected plan. Every placeholder must name an earlier step that the sub-goal lists in dependsOn, and no step may depend on itself or on a later step.',
  ].join('\n'),
  schema: operaPlanSchema,
});

export const operaAnalysisSchema = z.object({
  status: z.enum(['yes', 'no']).describe('"yes" when the passages are enough to answer the sub-goal, "no" otherwise.'),
  answer: z.string().describe('The short answer to the sub-goal (an entity, date or number); empty when status is "no" and nothing is known.'),
  analysis: z.string().describe('Which passage supports the answer, or what information is missing.'),
});

/** Analysis-Answer Agent (REM): sufficiency indicator ϕ ∈ {yes, no}, the answer, and the analysis. */
export const operaAnalysisAnswerPrompt = definePrompt({
  id: 'opera.analysis-answer',
  role: 'opera-analysis-answer',
  version: '1',
  description: 'OPERA Analysis-Answer Agent: judge whether the retrieved sentences suffice for the sub-goal, and answer it if so.',
  system: 'You check retrieved evidence against one sub-goal of a larger question and answer only from that evidence.',
  template: [
    'Overall question: {{question}}',
    'Facts established so far:',
    '{{memory}}',
    '',
    'Current sub-goal: {{subGoal}}',
    '',
    'Retrieved passages:',
    '{{passages}}',
    '',
    'Do the passages state the fact the sub-goal asks for? If they do, answer "yes" with the short answer and the passage that states it.',
    'If they do not, answer "no" and say which information is missing. Do not guess from memory.',
  ].join('\n'),
  schema: operaAnalysisSchema,
});

export const operaRewriteSchema = z.object({
  query: z.string().min(1).describe('The rewritten search query.'),
  strategy: z.string().describe('How it was rewritten: keyword-expansion, synonym, entity-focus, specification or simplification.'),
  keywords: z.array(z.string()).describe('The key terms the new query relies on.'),
});

/** Rewrite Agent (REM): a refined query after a "no", from the failure analysis. */
export const operaRewritePrompt = definePrompt({
  id: 'opera.rewrite',
  role: 'opera-rewrite',
  version: '1',
  description: 'OPERA Rewrite Agent: reformulate a sub-goal query whose retrieval was insufficient, using the failure analysis.',
  system: 'You rewrite search queries so that a retriever finds the passage a question needs.',
  template: [
    'Sub-goal: {{subGoal}}',
    'Query that failed: {{query}}',
    'Why the results were not enough: {{analysis}}',
    'Queries already tried:',
    '{{previousQueries}}',
    '',
    'Write one new query that is more likely to retrieve the missing fact: add precise keywords, synonyms or the full name of the entity, or drop words that mislead the search.',
    'Name the strategy you used and list the key terms.',
  ].join('\n'),
  schema: operaRewriteSchema,
});

export const operaSynthesisSchema = z.object({
  answer: z.string().describe('The short final answer to the overall question.'),
  reasoning: z.string().describe('How the sub-goal answers lead to it.'),
});

/** Final synthesis: the answer composed from the trajectory memory. */
export const operaSynthesisPrompt = definePrompt({
  id: 'opera.synthesis',
  role: 'opera-synthesis',
  version: '1',
  description: 'OPERA final step: compose the answer to the question from the sub-goal answers in trajectory memory.',
  system: 'You state the final answer of a multi-step investigation.',
  template: [
    'Question: {{question}}',
    '',
    'Sub-goals and their answers:',
    '{{trajectory}}',
    '',
    'Give the short final answer to the question (an entity, a date, a number or yes/no), and one sentence on how the steps lead to it.',
  ].join('\n'),
  schema: operaSynthesisSchema,
});
