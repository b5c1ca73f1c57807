import { classifyQuestion } from './classifyQuestion';
import { readAnswer } from './reader';

describe('classifyQuestion', () => {
  it.each([
    ['Who directed the film?', 'person'],
    ['When was the bridge opened?', 'date'],
    ['In what year did the war end?', 'date'],
    ['How many seats does the arena have?', 'number'],
    ['In which city is the university located?', 'place'],
    ['Are both bands from Canada?', 'yes-no'],
    ['What instrument did she play?', 'entity'],
  ])('%s → %s', (question, type) => {
    expect(classifyQuestion(question).type).toBe(type);
  });

  it('reads the options and the comparison of a choice question', () => {
    expect(classifyQuestion('Which tower was built first, the Eiffel Tower or the Chrysler Building?')).toMatchObject({
      type: 'choice',
      options: ['the Eiffel Tower', 'the Chrysler Building'],
      comparative: 'earlier',
    });
    expect(classifyQuestion('Which lake is larger Lake Erie or Lake Ontario?')).toMatchObject({
      options: ['Lake Erie', 'Lake Ontario'],
      comparative: 'more',
    });
  });
});

describe('readAnswer', () => {
  const passages = [
    { id: '1', title: 'Eiffel Tower', text: 'The Eiffel Tower is a lattice tower in Paris. It was completed in 1889 for the World Fair.' },
    { id: '2', title: 'Chrysler Building', text: 'The Chrysler Building is a skyscraper in Manhattan. It was completed in 1930.' },
    { id: '3', title: 'Gustave Eiffel', text: 'Gustave Eiffel was a French civil engineer. His company designed the Eiffel Tower.' },
  ];

  it('extracts a span of the asked type from the best-supported sentence', () => {
    expect(readAnswer('In what year was the Chrysler Building completed?', passages).answer).toBe('1930');
    expect(readAnswer('Whose company designed the Eiffel Tower?', passages).answer).toBe('Gustave Eiffel');
    expect(readAnswer('In which city is the Eiffel Tower?', passages).answer).toBe('Paris');
  });

  it('compares options by their years', () => {
    expect(readAnswer('Which was completed first, Chrysler Building or Eiffel Tower?', passages).answer).toBe('Eiffel Tower');
    expect(readAnswer('Which was completed later, Eiffel Tower or Chrysler Building?', passages).answer).toBe('Chrysler Building');
  });

  it('answers yes/no by whether the entities have the attribute', () => {
    expect(readAnswer('Is the Eiffel Tower a lattice tower?', passages).answer).toBe('yes');
    expect(readAnswer('Is the Chrysler Building a lattice tower?', passages).answer).toBe('no');
  });

  it('has no answer and no confidence without supporting text', () => {
    expect(readAnswer('Who painted the Mona Lisa?', [])).toMatchObject({ answer: 'unknown', confidence: 0 });
  });
});
