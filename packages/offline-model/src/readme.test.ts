import { classifyQuestion, offlineModel, readAnswer } from '@multihop/offline-model';
import { ragAnswerPrompt } from '@multihop/prompts';

const passages = [
  { id: 'p1', title: 'Eiffel Tower', text: 'The Eiffel Tower is a lattice tower in Paris. It was completed in 1889.' },
  { id: 'p2', title: 'Gustave Eiffel', text: 'Gustave Eiffel was a French civil engineer. His company designed the Eiffel Tower.' },
];

it('answers prompt roles from their variables, offline and deterministically', async () => {
  const model = offlineModel();
  const { output, usage } = await model.call({
    prompt: ragAnswerPrompt,
    vars: { question: 'In what year was the Eiffel Tower completed?', passages },
  });
  expect(output.answer).toBe('1889');
  expect(usage).toMatchObject({ model: 'offline', estimated: true });

  // The lexical toolkit underneath, for handlers of new roles.
  expect(classifyQuestion('Who designed the Eiffel Tower?').type).toBe('person');
  expect(readAnswer('Whose company designed the Eiffel Tower?', passages).answer).toBe('Gustave Eiffel');
});
