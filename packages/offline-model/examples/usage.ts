import assert from 'node:assert/strict';
import { classifyQuestion, defineOfflineHandler, offlineModel, passagesVar, readAnswer, textVar } from '@multihop/offline-model';
import { definePrompt, judgeCorrectnessPrompt } from '@multihop/prompts';
import { z } from 'zod';

const passages = [
  { id: 'p1', title: 'Eiffel Tower', text: 'The Eiffel Tower is a lattice tower in Paris. It was completed in 1889.' },
  { id: 'p2', title: 'Gustave Eiffel', text: 'Gustave Eiffel was a French civil engineer. His company designed the Eiffel Tower.' },
];

// A role of your own: its prompt, and how the offline model answers it from the call's variables.
const answerPrompt = definePrompt({
  id: 'example.answer',
  role: 'example-answer',
  version: '1',
  description: 'Answer the question from the passages.',
  template: 'Question: {{question}}\n\n{{passages}}', // passages render as a numbered list
  schema: z.object({ answer: z.string() }),
});
const answerOffline = defineOfflineHandler(answerPrompt, (vars) => ({
  answer: readAnswer(textVar(vars, 'question', 'example-answer'), passagesVar(vars, 'passages', 'example-answer')).answer,
}));

async function main(): Promise<void> {
  const model = offlineModel({ handlers: [answerOffline] });
  const { output, usage } = await model.call({
    prompt: answerPrompt,
    vars: { question: 'In what year was the Eiffel Tower completed?', passages },
  });
  console.log(output, usage);
  assert.equal(output.answer, '1889');
  assert.equal(usage.model, 'offline');
  assert.equal(usage.estimated, true); // no tokenizer offline: counts are estimates, and say so

  // The roles no method owns are built in: the LLM judge (and the listwise reranker).
  const verdict = await model.call({
    prompt: judgeCorrectnessPrompt,
    vars: { question: 'Which city hosted the 1900 Summer Olympics?', prediction: 'It was Paris.', gold: 'Paris' },
  });
  assert.equal(verdict.output.decision, 'yes');

  // The lexical toolkit underneath, for handlers of new roles.
  assert.equal(classifyQuestion('Who designed the Eiffel Tower?').type, 'person');
  assert.equal(readAnswer('Whose company designed the Eiffel Tower?', passages).answer, 'Gustave Eiffel');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
