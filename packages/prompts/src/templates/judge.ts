import { z } from 'zod';
import { definePrompt } from '../definePrompt';

export const judgeVerdictSchema = z.object({
  explanation: z.string().describe('A short rationale for the decision.'),
  decision: z.enum(['yes', 'no']),
});

export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;

/**
 * PAR² appendix A.2: an LLM judges whether the essential facts of the gold answer are present
 * in the prediction, by meaning rather than wording, and answers with a rationale and yes/no.
 */
export const judgeCorrectnessPrompt = definePrompt({
  id: 'judge.correctness',
  role: 'judge',
  version: '1',
  description: 'LLM-judge correctness (PAR² A.2): does the predicted answer contain the substance of the ground truth? explanation + yes/no.',
  system: 'You grade answers to questions against a reference answer.',
  template: [
    'Decide whether the predicted answer below gets the question right, using the ground-truth answer as the reference.',
    '- Compare what the two answers mean, not how they are worded; different wording of the same fact is correct.',
    '- Wording matters only where it changes the meaning.',
    '- Say yes only if the key facts of the ground truth appear in the predicted answer; otherwise say no.',
    '',
    'Question: {{question}}',
    'Predicted answer: {{prediction}}',
    'Ground-truth answer: {{gold}}',
  ].join('\n'),
  schema: judgeVerdictSchema,
});
