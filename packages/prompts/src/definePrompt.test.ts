import { z } from 'zod';
import { definePrompt, formatPassages, TemplateError } from './definePrompt';

const prompt = definePrompt({
  id: 'test.answer',
  role: 'writer',
  version: '1',
  description: 'test',
  system: 'You are {{persona}}.',
  template: 'Passages:\n{{passages}}\nQuestion: {{question}}\nAgain: {{ question }}',
  schema: z.object({ answer: z.string() }),
});

describe('definePrompt', () => {
  it('lists its variables in order of first use', () => {
    expect(prompt.variables).toEqual(['persona', 'passages', 'question']);
  });

  it('renders system and user messages, passages numbered, with the JSON output contract appended', () => {
    const messages = prompt.render({
      persona: 'a careful reader',
      question: 'Who?',
      passages: [
        { id: 'a', title: 'Shirley Temple', text: 'Shirley Temple was a diplomat.' },
        { id: 'b', title: 'Kiss and Tell', text: 'A 1945 film.' },
      ],
    });
    expect(messages[0]).toEqual({ role: 'system', content: 'You are a careful reader.' });
    const user = messages[1]?.content ?? '';
    expect(user).toContain('[1] Shirley Temple: Shirley Temple was a diplomat.\n[2] Kiss and Tell: A 1945 film.');
    expect(user).toContain('Question: Who?\nAgain: Who?');
    expect(user).toMatch(/JSON Schema:\n\{.*"answer".*\}$/s);
  });

  it('fails naming the prompt and every missing variable', () => {
    expect(() => prompt.render({ persona: 'x' })).toThrow(TemplateError);
    expect(() => prompt.render({ persona: 'x' })).toThrow('prompt test.answer: missing variables "passages", "question"');
    expect(() => prompt.render({ persona: 'x', passages: [], question: null })).toThrow(/missing variable "question"/);
  });

  it('formats an empty passage list visibly', () => {
    expect(formatPassages([])).toBe('(no passages)');
  });

  it('renders an empty list of any kind as "(none)", not as passages (IRCoT\'s first step has no reasoning yet)', () => {
    const steps = definePrompt({ id: 'test.steps', role: 'r', version: '1', description: 'd', template: 'Reasoning so far:\n{{thoughts}}', schema: z.object({ next: z.string() }) });
    expect(steps.render({ thoughts: [] })[0]!.content).toMatch(/^Reasoning so far:\n\(none\)\n/);
    expect(steps.render({ thoughts: ['A is B.'] })[0]!.content).toMatch(/^Reasoning so far:\n1\. A is B\.\n/);
  });

  it('refuses a malformed placeholder when the prompt is defined, naming the prompt and where', () => {
    const define = (template: string) => () => definePrompt({ id: 'test.bad', role: 'r', version: '1', description: 'd', template, schema: z.object({ a: z.string() }) });
    expect(define('Answer {{sub-question}} now')).toThrow('prompt test.bad: a malformed placeholder near "Answer {{sub-question}} now" (a variable is {{name}}: letters, digits and _)');
    expect(define('Given {{e}')).toThrow(/near "Given \{\{e\}"/);
    expect(define('A {{ a }} and {b}')).not.toThrow();
  });
});
