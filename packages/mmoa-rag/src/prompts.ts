import type { ReplyFormat } from '@multihop/core';
import { definePrompt } from '@multihop/prompts';
import { z } from 'zod';

// MMOA-RAG's three agents share one LLM in the paper (parameter sharing) and differ only by
// prompt. Each replies in plain text, as the authors' agents do: sub-questions one per line,
// document IDs separated by commas, a short answer. The wording is this project's own.

/** A candidate document as the Selector and the Generator see it. */
export interface CandidateDocument {
  id: string;
  title: string;
  text: string;
}

/** Candidates numbered from 0 as the paper's Selector addresses them: `Document0: <title>. <text>`. */
export function formatDocuments(value: unknown): string {
  const docs = value as ReadonlyArray<Pick<CandidateDocument, 'title' | 'text'>>;
  if (docs.length === 0) return '(no documents)';
  return [`(${docs.length} documents, Document0 to Document${docs.length - 1})`, ...docs.map((d, i) => `Document${i}: ${d.title}. ${d.text}`)].join('\n\n');
}

export const queryRewriterSchema = z.object({
  subQuestions: z.array(z.string().min(1)).min(1).describe('The sub-questions, in the order they are written.'),
});

// Bullets and numbering a model may put in front of a line are layout, not part of the query.
const LIST_MARKER = /^\s*(?:[-*•]|\d+[.)]|sub-?question\s*\d*\s*[:.)-])\s*/iu;

const rewriterReply: ReplyFormat<z.infer<typeof queryRewriterSchema>> = {
  instructions: 'Reply with the sub-questions only, one per line, and nothing else.',
  parse: (text) => {
    const subQuestions = text
      .split(/\r?\n/)
      .map((line) => line.replace(LIST_MARKER, '').trim())
      .filter((line) => line !== '');
    return subQuestions.length > 0 ? { ok: true, value: { subQuestions } } : { ok: false, issues: 'the reply has no sub-question line' };
  },
  format: (value) => value.subQuestions.join('\n'),
};

/** Query Rewriter (QR): the question as searchable sub-questions, one per line. */
export const queryRewriterPrompt = definePrompt({
  id: 'mmoa-rag.query-rewriter',
  role: 'mmoa-rag-query-rewriter',
  version: '1',
  description: 'MMOA-RAG Query Rewriter: rewrite or decompose the question into at most four searchable sub-questions, one per line.',
  system: 'You turn hard questions into short sub-questions that a search engine can answer one at a time.',
  template: [
    'Question: {{question}}',
    '',
    'Rewrite the question, or split it into sub-questions, so that each one can be searched on its own.',
    'Name every person, place or work in full instead of writing "he", "it" or "that film"; when a sub-question depends on another one, describe the unknown thing by what the earlier sub-question asks.',
    'Do not repeat a sub-question. Use at most {{count}} sub-questions; a question that needs one search stays one line.',
  ].join('\n'),
  schema: queryRewriterSchema,
  reply: rewriterReply,
});

export const selectorSchema = z.object({
  /** The reply exactly as written: the penalty check must see malformed output, so nothing is repaired. */
  selection: z.string().describe('Document IDs separated by commas, e.g. Document0,Document3.'),
});

const selectorReply: ReplyFormat<z.infer<typeof selectorSchema>> = {
  instructions: 'Reply with the IDs of the helpful documents only, separated by commas and without spaces, for example: Document0,Document3,Document5',
  // Every reply parses: whether it keeps to the Selector's vocabulary is the machine's penalty
  // check (selectionMalformed / selectionRepeatsId), not a parse error to repair.
  parse: (text) => ({ ok: true, value: { selection: text.trim() } }),
  format: (value) => value.selection,
  // For servers with constrained decoding (provider-openai's `guidedDecoding`): only the paper's
  // vocabulary can be produced. The after-the-fact check stays, for every other provider.
  pattern: '(Document(0|[1-9][0-9]*),)*Document(0|[1-9][0-9]*)',
};

/** Selector (S): the IDs of the candidates that help answer the question, and nothing else. */
export const selectorPrompt = definePrompt({
  id: 'mmoa-rag.selector',
  role: 'mmoa-rag-selector',
  version: '2',
  description: 'MMOA-RAG Selector: from candidates Document0…DocumentK−1, output only the IDs of those that help answer the question.',
  system: 'You pick which retrieved documents are useful for answering a question. You write document IDs and nothing else.',
  template: [
    'Question: {{question}}',
    '',
    'Candidate documents:',
    '',
    '{{candidates}}',
    '',
    'Which of these documents help answer the question "{{question}}"? List each useful one once, in any order.',
  ].join('\n'),
  schema: selectorSchema,
  reply: selectorReply,
  formatters: { candidates: formatDocuments },
});

export const generatorSchema = z.object({
  answer: z.string().describe('The short answer, as the reply states it.'),
});

const generatorReply: ReplyFormat<z.infer<typeof generatorSchema>> = {
  instructions: 'Reply with the answer alone: a name, a date, a number, yes or no, or a short phrase. No explanation.',
  parse: (text) => ({ ok: true, value: { answer: text.trim() } }),
  format: (value) => value.answer,
};

/** Generator (G): the answer from the selected documents, as briefly as it can be stated. */
export const generatorPrompt = definePrompt({
  id: 'mmoa-rag.generator',
  role: 'mmoa-rag-generator',
  version: '1',
  description: 'MMOA-RAG Generator: answer the question from the selected documents, as briefly as possible.',
  system: 'You answer questions from the documents you are given, accurately and in as few words as possible. If the documents do not say, give your best short guess rather than an explanation.',
  template: ['Documents:', '', '{{passages}}', '', 'Question: {{question}}', '', 'Answer the question from these documents.'].join('\n'),
  schema: generatorSchema,
  reply: generatorReply,
  formatters: { passages: formatDocuments },
});

export const MMOA_PROMPTS = [queryRewriterPrompt, selectorPrompt, generatorPrompt] as const;
