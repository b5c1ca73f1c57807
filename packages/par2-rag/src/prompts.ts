import { z } from 'zod';
import { definePrompt } from '@multihop/prompts';

// PAR²-RAG (par2-rag.md §3.1, appendix A.3): five agents; four of them are prompted models.
// The retriever/reranker is the fifth and needs no prompt here.

export const par2PlanSchema = z.object({
  searches: z
    .array(
      z.object({
        reason: z.string().describe('Why this search helps answer the question.'),
        // Not blank: a whitespace query would be dropped, leaving the plan with no search (repaired instead).
        query: z.string().regex(/\S/, 'must not be blank').describe('The search query itself.'),
      }),
    )
    .min(1),
});

/** Planner 𝒫(q): m diverse, complementary sub-queries that widen the evidence frontier (Stage 1). */
export const par2PlannerPrompt = definePrompt({
  id: 'par2.planner',
  role: 'par2-planner',
  version: '2',
  description: 'PAR² Planner (Stage 1, Coverage Anchor): m complementary search queries, each with its reason.',
  system: 'You plan searches for a research assistant who must answer a question from a document collection.',
  template: [
    'Question: {{question}}',
    '',
    'Plan {{count}} searches of the document collection that together would find every fact needed to answer the question.',
    'Make them complementary: cover each entity the question names, each relation it asks about, and the intermediate facts a chain of reasoning would pass through.',
    'For each search give the reason it is needed and the exact query to run.',
  ].join('\n'),
  schema: par2PlanSchema,
});

export const par2WriterSchema = z.object({
  reasoning: z.string().describe('How the passages lead to the answer.'),
  answer: z.string().describe('The short final answer: an entity, a date, a number, or yes/no.'),
});

/** Writer 𝒢/𝒲: the response r_t from the question and the current context C_t. */
export const par2WriterPrompt = definePrompt({
  id: 'par2.writer',
  role: 'par2-writer',
  version: '1',
  description: 'PAR² Writer: answer the question from the current context C_t (step response r_t, and the final answer).',
  system: 'You are a senior researcher answering a question from the research gathered so far. Answer the question directly; do not summarise the research.',
  template: 'Question: {{question}}\n\nResearch gathered so far:\n{{passages}}\n\nUsing all the evidence above, answer the question.',
  schema: par2WriterSchema,
});

export const par2EscSchema = z.object({
  decision: z.enum(['CONTINUE', 'STOP']).describe('STOP when the evidence supports the response; CONTINUE when a fact is missing.'),
  query: z.string().describe('When continuing: a search for the missing fact. Empty when stopping.'),
  rationale: z.string().describe('What is supported and what, if anything, is missing.'),
});

/** Evidence Sufficiency Controller ℰ(q, r_t, C_t) → (action, q*_{t+1}, rationale) (eq. 1). */
export const par2EscPrompt = definePrompt({
  id: 'par2.esc',
  role: 'par2-esc',
  version: '3',
  description: 'PAR² Evidence Sufficiency Controller: CONTINUE or STOP, a follow-up query, and a rationale (eq. 1).',
  system: 'You check whether a draft answer is fully supported by the evidence before it is committed.',
  template: [
    'Question: {{question}}',
    '',
    'Draft response: {{response}}',
    'How the draft reached it: {{reasoning}}',
    '',
    'Evidence:',
    '{{passages}}',
    '',
    'Searches already run:',
    '{{previousQueries}}',
    '',
    'Does the evidence establish every fact the draft response relies on, for every hop of the question?',
    'If yes, decide STOP. If a fact is missing or the draft rests on a guess, decide CONTINUE and give a search for the missing fact that is not one of the searches already run.',
  ].join('\n'),
  schema: par2EscSchema,
  formatters: { previousQueries: (value) => (Array.isArray(value) && value.length > 0 ? value.map((q, i) => `${i + 1}. ${String(q)}`).join('\n') : '(none)') },
});

export const par2QuerySchema = z.object({
  query: z.string().regex(/\S/, 'must not be blank').describe('The follow-up search query.'),
});

/** Query Formulator 𝒬: a focused follow-up query for commitment-stage refinement. */
export const par2QueryFormulatorPrompt = definePrompt({
  id: 'par2.query-formulator',
  role: 'par2-query-formulator',
  version: '3',
  description: 'PAR² Query Formulator: rewrite the controller’s request into one focused search for the missing evidence.',
  system: 'You write precise search queries for a document collection.',
  template: [
    'Question: {{question}}',
    'Draft response: {{response}}',
    'How the draft reached it: {{reasoning}}',
    'What the controller found missing: {{rationale}}',
    'The controller’s suggested search: {{suggestion}}',
    'Searches already run:',
    '{{previousQueries}}',
    '',
    'Write one new search that targets the missing fact. Name the entity it is about; do not repeat a search already run.',
  ].join('\n'),
  schema: par2QuerySchema,
});
