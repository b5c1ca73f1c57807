import { comparedThings, settleComparison } from './compare';
import { classifyQuestion } from './classifyQuestion';
import { readAnswer } from './reader';
import { readByHops } from './missing';

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

describe('readByHops', () => {
  // HotpotQA train 5a8718c25542991e771816c7.
  const question = 'Who directed the film that was shot in or around Leland, North Carolina in 1986';
  const leland = {
    id: 'leland',
    title: 'Leland, North Carolina',
    text: 'Leland is a town in Brunswick County, North Carolina, United States. A number of movies, such as "Maximum Overdrive" (1986), "Domestic Disturbance" (2001), and "We\'re the Millers" (2013) have been shot in or around Leland.',
  };
  const film = { id: 'film', title: 'Maximum Overdrive', text: 'Maximum Overdrive is a 1986 American science fiction horror comedy film written and directed by Stephen King.' };

  it('follows the chain into the bridge entity’s own passage', () => {
    const chain = readByHops(question, [leland, film]);
    expect(chain.hops.map((h) => h.reading.answer)).toEqual(['Maximum Overdrive', 'Stephen King']);
    expect(chain.hops[1]!.reading.support?.passage.title).toBe('Maximum Overdrive');
    expect(chain.answer).toBe('Stephen King');
    expect(chain.open).toBeUndefined();
  });

  it('leaves the hop open when the bridge has no passage of its own', () => {
    const chain = readByHops(question, [leland]);
    expect(chain.answer).toBeUndefined();
    expect(chain.open).toMatchObject({ index: 1, kind: 'no-passage', lead: 'Maximum Overdrive' });
  });
});

describe('settled comparisons', () => {
  // HotpotQA train 5ab26ce1554299449642c89c.
  const passages = [
    { id: 'a', title: 'Sid Haig', text: 'Sid Haig (born July 14, 1939) is an American actor.' },
    { id: 'b', title: 'Vic Darchinyan', text: 'Vakhtang "Vic" Darchinyan (born 7 January 1976) is an Armenian professional boxer.' },
  ];
  it('is settled when every option has its year, and not when one lacks it', () => {
    expect(readAnswer('Who is the oldest, Sid Haig or Vic Darchinyan?', passages)).toMatchObject({ answer: 'Sid Haig', settled: true });
    expect(readAnswer('Who is the oldest, Sid Haig or Vic Darchinyan?', passages.slice(0, 1)).settled).toBe(false);
  });
});

describe('settleComparison', () => {
  it('settles a comparison from its sub-answers, and says how many compared things had one', () => {
    // HotpotQA train 5ae40c465542996836b02c25 and 5abcd1c75542993a06baf972.
    const both = 'Are Christopher Nolan and Sathish Kalathil both film directors?';
    expect(comparedThings(both)).toEqual(['Christopher Nolan', 'Sathish Kalathil']);
    expect(settleComparison(both, [{ subGoal: 'Is Christopher Nolan a film director?', answer: 'yes' }, { subGoal: 'Is Sathish Kalathil a film director?', answer: 'yes' }])).toEqual({ answer: 'yes', pairs: 2 });
    const first = 'Which magazine was published first, Guitar World or Science News?';
    expect(settleComparison(first, [{ subGoal: 'When was Guitar World first published?', answer: 'July 1980' }, { subGoal: 'When was Science News first published?', answer: '1921' }])).toMatchObject({ answer: 'Science News', pairs: 2 });
    expect(settleComparison(first, [{ subGoal: 'When was Guitar World first published?', answer: '1980' }])).toEqual({ pairs: 1 });
  });
});
