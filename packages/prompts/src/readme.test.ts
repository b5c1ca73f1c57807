import { definePrompt, judgeCorrectnessPrompt, prompts } from '@multihop/prompts';
import { z } from 'zod';

it('looks prompts up, renders them, and defines new ones', () => {
  // Every built-in prompt, by id or by role.
  expect(prompts.get('baseline.rag-answer').role).toBe('rag-answer');
  expect(prompts.list({ role: 'judge' })).toEqual([judgeCorrectnessPrompt]);

  // Rendering fills {{variables}} and appends the JSON output contract from the zod schema.
  const [system, user] = judgeCorrectnessPrompt.render({
    question: 'Which city hosted the 1900 Summer Olympics?',
    prediction: 'Paris',
    gold: 'Paris, France',
  });
  expect(system?.role).toBe('system');
  expect(user?.content).toContain('Predicted answer: Paris');
  expect(user?.content).toContain('"decision"');

  // A method defines its own roles the same way.
  const planner = definePrompt({
    id: 'example.planner',
    role: 'planner',
    version: '1',
    description: 'Split a question into sub-questions.',
    template: 'Question: {{question}}\nList the sub-questions.',
    schema: z.object({ subQuestions: z.array(z.string()).min(1) }),
  });
  expect(planner.variables).toEqual(['question']);
  expect(() => planner.render({})).toThrow('prompt example.planner: missing variable "question"');
});
