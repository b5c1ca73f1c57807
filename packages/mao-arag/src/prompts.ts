import { definePrompt } from '@multihop/prompts';
import type { ReplyFormat } from '@multihop/core';
import { z } from 'zod';

// MAO-ARAG (mao-arag.md §3): a planner and seven executors. Six executors are prompted models;
// Retrieval (R) is the retriever and has no prompt. Wording is this project's; what each agent
// is asked for follows the authors' executors (chenyiqun/Agentic-RAG, qa_manager/).

// ---------------------------------------------------------------------------------------------
// Planner: a workflow in plain text, as the paper's planner (an LLM trained with PPO) writes it.

export const maoPlanSchema = z.object({
  workflow: z.string().describe('The workflow as written: executor abbreviations separated by commas.'),
});
export type MaoPlanReply = z.infer<typeof maoPlanSchema>;

/**
 * The plan is read as it was written: any reply parses, so a malformed workflow reaches the
 * validity gate (format penalty, fallback) instead of failing the call.
 */
const planReply: ReplyFormat<MaoPlanReply> = {
  instructions: 'Reply with one line and nothing else:\nWorkflow: <abbreviations separated by commas>',
  parse: (text) => ({ ok: true, value: { workflow: text.trim() } }),
  format: (value) => (/^\s*workflow:/i.test(value.workflow) ? value.workflow : `Workflow: ${value.workflow}`),
};

const executorLines = {
  QR: 'QR (Query Rewriter): turns the question into one short, precise search query.',
  QDS: 'QDS (Query Decomposition Serial): splits a question whose later parts depend on earlier answers into ordered sub-questions; each is answered in turn, and each answer is written into the next sub-question.',
  QDP: 'QDP (Query Decomposition Parallel): splits a question about several independent things (a comparison of two entities, say) into sub-questions answered separately, then merges their answers.',
  R: 'R (Retrieval): searches the document collection for passages about the question (or the rewritten query).',
  DS: 'DS (Document Selector): keeps only the retrieved passages that help answer the question.',
  AG: 'AG (Answer Generator): answers the question, from the passages when there are any.',
};

/** The planner at the top level: any of the six plannable executors (mao-arag.md §3.1). */
export const maoPlannerPrompt = definePrompt({
  id: 'mao-arag.planner',
  role: 'mao-arag-planner',
  version: '1',
  description: 'MAO-ARAG Planner (§3.1): a workflow of executors (QR, QDS, QDP, R, DS, AG) for the question, as plain text.',
  system: 'You design the cheapest workflow of agents that will still answer a question correctly.',
  template: [
    'Agents you can use:',
    executorLines.QR,
    executorLines.QDS,
    executorLines.QDP,
    executorLines.R,
    executorLines.DS,
    executorLines.AG,
    '',
    'Rules: use each agent at most once. QDS or QDP, when used, is the whole workflow: the sub-questions get workflows of their own. Any other workflow ends with AG.',
    'Every agent costs tokens, time or a search, so add one only when the question needs it: a fact the model may not know needs R; a long-winded question gains from QR; a two-step question whose second step depends on the first needs QDS; a comparison of two things needs QDP.',
    '',
    'Question: {{question}}',
  ].join('\n'),
  schema: maoPlanSchema,
  reply: planReply,
});

/** The planner on a sub-question's turn: only R, DS and AG (the authors' sub-level planner). */
export const maoSubPlannerPrompt = definePrompt({
  id: 'mao-arag.sub-planner',
  role: 'mao-arag-planner',
  version: '1',
  description: 'MAO-ARAG Planner on a sub-question’s turn: a workflow of R, DS and AG only, as plain text.',
  system: 'You design the cheapest workflow of agents that will still answer a question correctly.',
  template: [
    'Agents you can use:',
    executorLines.R,
    executorLines.DS,
    executorLines.AG,
    '',
    'Rules: use each agent at most once and end with AG. A question common knowledge answers needs only AG; one about a specific fact needs R before AG.',
    '',
    'Question: {{question}}',
  ].join('\n'),
  schema: maoPlanSchema,
  reply: planReply,
});

// ---------------------------------------------------------------------------------------------
// Executors.

const trajectoryLines = (value: unknown): string =>
  Array.isArray(value) && value.length > 0
    ? value
        .map((entry, i) => {
          const e = entry as { subGoal?: unknown; answer?: unknown };
          return `Sub-question ${i + 1}: ${String(e.subGoal ?? '')}\nAnswer: ${String(e.answer ?? '')}`;
        })
        .join('\n')
    : '(none yet)';

export const maoQuerySchema = z.object({ query: z.string().min(1).describe('The rewritten search query.') });

/** QR: one concise, searchable query that keeps only what finding the answer needs. */
export const maoQueryRewritePrompt = definePrompt({
  id: 'mao-arag.query-rewrite',
  role: 'mao-arag-qr',
  version: '1',
  description: 'MAO-ARAG Query Rewriter (QR): one concise search query for the question.',
  system: 'You turn questions into short, specific search queries.',
  template: 'Question: {{question}}\n\nWrite one search query that keeps the names, dates and relations the answer depends on and drops everything else.',
  schema: maoQuerySchema,
});

/** A list line's numbering or bullet, which the decomposers drop (QueryDecomposition.ts). */
export const LIST_MARKER = /^\s*(?:\d+[.)]|[-*•])\s*/;

export const maoSubQuestionsSchema = z.object({
  // A line that is only numbering ("1.", "-") is no sub-question: refused, so the reply is repaired rather than cleaned to nothing.
  subQuestions: z
    .array(z.string().min(1).refine((q) => q.trim().replace(LIST_MARKER, '').trim() !== '', 'is only list numbering or a bullet, no question'))
    .min(1)
    .describe('The sub-questions, in order.'),
});

/** QDS: ordered, dependent sub-questions; a later one may refer to an earlier answer. */
export const maoDecomposeSerialPrompt = definePrompt({
  id: 'mao-arag.decompose-serial',
  role: 'mao-arag-qds',
  version: '2',
  description: 'MAO-ARAG Query Decomposition Serial (QDS): ordered sub-questions, later ones depending on earlier answers.',
  system: 'You break multi-step questions into the few single-fact questions that answer them, in the order they must be answered.',
  template: [
    'Question: {{question}}',
    '',
    'List at most {{count}} sub-questions, first to last. Each asks for one fact. Where a sub-question needs the answer of an earlier one, refer to it as "[answer from step N]"; it will be filled in before that sub-question is searched. The last sub-question’s answer answers the question.',
  ].join('\n'),
  schema: maoSubQuestionsSchema,
});

export const maoRevisedSchema = z.object({ question: z.string().min(1).describe('The sub-question, self-contained.') });

/** QDS, between sub-questions: the next draft rewritten with the answers found so far. */
export const maoReviseSerialPrompt = definePrompt({
  id: 'mao-arag.revise-serial',
  role: 'mao-arag-qds-revise',
  version: '1',
  description: 'MAO-ARAG QDS between turns: rewrite the next sub-question with the earlier sub-answers so it can be searched alone.',
  system: 'You make a draft sub-question self-contained using the answers already found.',
  template: [
    'Original question: {{question}}',
    '',
    'Answered so far:',
    '{{trajectory}}',
    '',
    'Next sub-question (draft): {{subGoal}}',
    '',
    'Rewrite the draft so that it names every entity it needs, taking them from the answers above, and can be searched on its own.',
  ].join('\n'),
  schema: maoRevisedSchema,
  formatters: { trajectory: trajectoryLines },
});

/** QDP: independent sub-questions, each answerable without the others. */
export const maoDecomposeParallelPrompt = definePrompt({
  id: 'mao-arag.decompose-parallel',
  role: 'mao-arag-qdp',
  version: '2',
  description: 'MAO-ARAG Query Decomposition Parallel (QDP): independent, self-contained sub-questions.',
  system: 'You break questions about several things into independent questions, one per thing.',
  template: [
    'Question: {{question}}',
    '',
    'List at most {{count}} sub-questions that can each be searched and answered on its own, without the others. Name the entity in each; do not repeat one.',
  ].join('\n'),
  schema: maoSubQuestionsSchema,
});

export const maoSelectionSchema = z.object({
  keep: z.array(z.number().int().min(0)).describe('Indices of the candidate passages that help answer the question.'),
});

/** DS: which of the retrieved passages help (indices only). */
export const maoDocumentSelectPrompt = definePrompt({
  id: 'mao-arag.document-select',
  role: 'mao-arag-ds',
  version: '1',
  description: 'MAO-ARAG Document Selector (DS): the indices of the retrieved passages that help answer the question.',
  system: 'You decide which retrieved passages bear on a question.',
  template: 'Question: {{question}}\n\nCandidate passages:\n{{candidates}}\n\nGive the indices of the passages that help answer the question; leave out the rest.',
  schema: maoSelectionSchema,
  formatters: {
    candidates: (value) =>
      Array.isArray(value)
        ? value.map((c) => { const p = c as { index: number; title: string; text: string }; return `[${p.index}] ${p.title}: ${p.text}`; }).join('\n')
        : String(value),
  },
});

export const maoAnswerSchema = z.object({
  answer: z.string().describe('A short answer: an entity, a date, a number, or yes/no.'),
});

/** AG: the answer from the passages (or from the model alone when nothing was retrieved). */
export const maoAnswerPrompt = definePrompt({
  id: 'mao-arag.answer',
  role: 'mao-arag-ag',
  version: '1',
  description: 'MAO-ARAG Answer Generator (AG): a short answer from the passages, or from what the model knows when there are none.',
  system: 'You answer questions briefly and never invent facts.',
  template: [
    'Earlier sub-questions and their answers:',
    '{{trajectory}}',
    '',
    'Passages:',
    '{{passages}}',
    '',
    'Question: {{question}}',
    '',
    'Answer as briefly as possible: a name, a date, a number, or yes/no.',
  ].join('\n'),
  schema: maoAnswerSchema,
  formatters: {
    trajectory: trajectoryLines,
    passages: (value) =>
      Array.isArray(value) && value.length > 0
        ? value.map((p, i) => { const h = p as { title: string; text: string }; return `[${i + 1}] ${h.title}: ${h.text}`; }).join('\n')
        : '(none: answer from what you know)',
  },
});

/** AS: the question's answer from its sub-questions' answers. */
export const maoSummarisePrompt = definePrompt({
  id: 'mao-arag.summarise',
  role: 'mao-arag-as',
  version: '1',
  description: 'MAO-ARAG Answer Summariser (AS): the original question’s answer from its sub-questions’ answers.',
  system: 'You combine the answers of sub-questions into the answer of the question they came from.',
  template: 'Question: {{question}}\n\nSub-questions and their answers:\n{{trajectory}}\n\nAnswer the question as briefly as possible from these answers; do not add facts they do not give.',
  schema: maoAnswerSchema,
  formatters: { trajectory: trajectoryLines },
});

export const MAO_PROMPTS = [
  maoPlannerPrompt,
  maoSubPlannerPrompt,
  maoQueryRewritePrompt,
  maoDecomposeSerialPrompt,
  maoReviseSerialPrompt,
  maoDecomposeParallelPrompt,
  maoDocumentSelectPrompt,
  maoAnswerPrompt,
  maoSummarisePrompt,
] as const;
