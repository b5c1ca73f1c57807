import assert from 'node:assert/strict';
import { definePrompt, judgeCorrectnessPrompt, PromptRegistry, rerankPrompt, sharedPrompts } from '@multihop/prompts';
import { z } from 'zod';

// The prompts no method owns (the LLM judge, the listwise reranker), by id or by role.
assert.equal(sharedPrompts.get('retriever.rerank'), rerankPrompt);
assert.deepEqual(sharedPrompts.list({ role: 'judge' }), [judgeCorrectnessPrompt]);

// Rendering fills {{variables}} and appends the output contract: the JSON Schema of the zod
// schema, or a plain-text form for a prompt that has one (the judge answers in two lines).
const [system, user] = judgeCorrectnessPrompt.render({
  question: 'Which city hosted the 1900 Summer Olympics?',
  prediction: 'Paris',
  gold: 'Paris, France',
});
console.log(user?.content);
assert.equal(system?.role, 'system');
assert.match(user?.content ?? '', /Predicted answer: Paris/);
assert.match(user?.content ?? '', /Explanation: <brief reason for the decision>\nDecision: <yes\|no>$/);
assert.deepEqual(judgeCorrectnessPrompt.reply?.parse('Explanation: same city.\nDecision: **Yes**'), {
  ok: true,
  value: { explanation: 'same city.', decision: 'Yes' },
});
const rerankUser = rerankPrompt.render({ query: 'q', candidates: [{ title: 'A', text: 'a' }] }).at(-1)?.content ?? '';
assert.match(rerankUser, /JSON Schema:\n\{.*"ranking"/s);

// A method defines its own roles the same way, and lists them in a registry of its own.
const planner = definePrompt({
  id: 'example.planner',
  role: 'planner',
  version: '1',
  description: 'Split a question into sub-questions.',
  template: 'Question: {{question}}\nList the sub-questions.',
  schema: z.object({ subQuestions: z.array(z.string()).min(1) }),
});
assert.deepEqual(planner.variables, ['question']);
assert.throws(() => planner.render({}), { message: 'prompt example.planner: missing variable "question"' });

const registry = new PromptRegistry([...sharedPrompts.list(), planner]);
assert.deepEqual(registry.roles(), ['judge', 'planner', 'reranker']);
