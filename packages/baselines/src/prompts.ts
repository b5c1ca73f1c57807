import { z } from 'zod';
import { definePrompt } from '@multihop/prompts';

// The baselines every paper compares against (PAR² §4.1, OPERA §4, MAO-ARAG §4, HERA §5.1):
// each prompt asks for the same thing the baseline's paper describes, in this project's words.

export const answerSchema = z.object({
  answer: z.string().describe('A short answer: an entity, a date, a number, or yes/no. No sentence.'),
});

export const directPrompt = definePrompt({
  id: 'baseline.direct',
  role: 'direct',
  version: '1',
  description: 'Direct inference: answer from the model’s own knowledge, no retrieval, no reasoning shown.',
  system: 'You answer factual questions as briefly as possible.',
  template: 'Question: {{question}}\n\nGive only the answer, as a short phrase.',
  schema: answerSchema,
});

export const reasonedAnswerSchema = z.object({
  reasoning: z.string().describe('The steps that lead to the answer.'),
  answer: z.string().describe('A short answer: an entity, a date, a number, or yes/no.'),
});

export const chainOfThoughtPrompt = definePrompt({
  id: 'baseline.cot',
  role: 'cot',
  version: '1',
  description: 'Chain-of-thought: reason step by step from own knowledge, then give a short answer.',
  system: 'You answer questions that need several facts combined. Work through the facts one at a time before answering.',
  template: 'Question: {{question}}\n\nThink step by step, then give the short answer.',
  schema: reasonedAnswerSchema,
});

export const ragAnswerPrompt = definePrompt({
  id: 'baseline.rag-answer',
  role: 'rag-answer',
  version: '1',
  description: 'Single-turn RAG: answer from the passages retrieved once for the question.',
  system: 'You answer questions using the passages you are given. Prefer facts stated in the passages over your own memory.',
  template: 'Passages:\n{{passages}}\n\nQuestion: {{question}}\n\nExplain briefly which passages give the answer, then give the short answer.',
  schema: reasonedAnswerSchema,
});

export const ircotStepSchema = z.object({
  thought: z.string().min(1).describe('Exactly one new sentence of reasoning that builds on the earlier ones.'),
  answer: z
    .string()
    .nullable()
    .describe('The short final answer once the reasoning reaches it; null while more facts are needed.'),
});

export const ircotStepPrompt = definePrompt({
  id: 'baseline.ircot-step',
  role: 'ircot',
  version: '1',
  description:
    'IRCoT step: extend the chain of thought by one sentence; that sentence becomes the next retrieval query, until the chain states the answer.',
  system:
    'You solve multi-hop questions one reasoning sentence at a time. Each sentence should state one fact taken from the passages or inferred from earlier sentences.',
  template:
    'Passages:\n{{passages}}\n\nQuestion: {{question}}\n\nReasoning so far:\n{{thoughts}}\n\nWrite the next single sentence of reasoning. If it reaches the final answer, also give that answer; otherwise set answer to null.',
  schema: ircotStepSchema,
});

export const reactStepSchema = z.object({
  thought: z.string().describe('What is known so far and what is missing.'),
  action: z.enum(['search', 'finish']).describe('search: look something up; finish: give the final answer.'),
  input: z.string().min(1).describe('For search: the query. For finish: the short final answer.'),
});

export const reactStepPrompt = definePrompt({
  id: 'baseline.react-step',
  role: 'react',
  version: '1',
  description: 'ReAct step: interleave a thought with an action, search[query] or finish[answer], reading each observation.',
  system:
    'You answer questions by alternating thoughts and actions. The actions are search (returns passages for a query) and finish (ends with the answer).',
  template: 'Question: {{question}}\n\nSteps so far (thought, action, observation):\n{{steps}}\n\nGive the next thought and action.',
  schema: reactStepSchema,
  formatters: {
    steps: (value) => {
      const steps = value as Array<{ thought: string; action: string; input: string; observation?: string }>;
      if (steps.length === 0) return '(none yet)';
      return steps
        .map((s, i) => `Thought ${i + 1}: ${s.thought}\nAction ${i + 1}: ${s.action}[${s.input}]\nObservation ${i + 1}: ${s.observation ?? ''}`)
        .join('\n');
    },
  },
});
