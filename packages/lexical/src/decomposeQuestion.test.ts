import { decomposeQuestion } from './decomposeQuestion';

// The questions are MuSiQue train questions (musique/train-100.json, the id beside each), except
// the two made up about "Jaws" and "Dune"; the rules know no dataset.
describe('decomposeQuestion', () => {
  it('turns a trailing relative clause into an inner look-up with a placeholder for its answer', () => {
    // 2hop__334380_326459, a county chain.
    expect(decomposeQuestion('What county shares a border with the county where Black Hawk Township is located?')).toEqual([
      'What is the county where Black Hawk Township is located?',
      'What county shares a border with [county from step 1]?',
    ]);
    // 2hop__131318_49700.
    expect(decomposeQuestion('What is the population of the state where Dodge City Regional Airport is located?')).toEqual([
      'What is the state where Dodge City Regional Airport is located?',
      'What is the population of [state from step 1]?',
    ]);
  });

  it('chains a relative clause and a role inside it into three steps, innermost first', () => {
    // 3hop1__404363_705261_126049.
    expect(decomposeQuestion('Who was in charge of the country where the composer of Aschenbrodel was a citizen?')).toEqual([
      'Who is the composer of Aschenbrodel?',
      'What is the country where [composer from step 1] was a citizen?',
      'Who was in charge of [country from step 2]?',
    ]);
  });

  it('reads a role of a named entity as its own step', () => {
    expect(decomposeQuestion('What award was received by the director of Jaws?')).toEqual([
      'Who is the director of Jaws?',
      'What award was received by [director from step 1]?',
    ]);
  });

  it('cuts a clause in the middle of the question where the main verb resumes', () => {
    // 2hop__131644_88123.
    expect(decomposeQuestion('When did the state where Pocahontas Mounds is located become part of the United States?')).toEqual([
      'What is the state where Pocahontas Mounds is located?',
      'When did [state from step 1] become part of the United States?',
    ]);
    // 2hop__141468_119861: a contact clause (no relative pronoun) keeps its stranded preposition.
    expect(decomposeQuestion('What year did the company Novair International Airways is part of dissolve?')).toEqual([
      'What is the company Novair International Airways is part of?',
      'What year did [company from step 1] dissolve?',
    ]);
  });

  it('gives a 3-hop question three steps: a possessive inside a relation inside the question', () => {
    // 3hop1__333281_308553_34740 and 3hop1__856756_805246_131877.
    expect(decomposeQuestion("When did the country of Izgoy's performer invade Manchuria?")).toEqual([
      "Who is Izgoy's performer?",
      'What is the country of [performer from step 1]?',
      'When did [country from step 2] invade Manchuria?',
    ]);
    expect(decomposeQuestion('Which is the body of water by the birthplace of the author of Dead Ernest?')).toEqual([
      'Who is the author of Dead Ernest?',
      'What is the birthplace of [author from step 1]?',
      'Which is the body of water by [birthplace from step 2]?',
    ]);
  });

  it('gives a 4-hop question four steps, a clause nested in a clause read innermost first', () => {
    // 4hop1__709382_146811_31223_91015.
    expect(decomposeQuestion("How many Publix stores are in the state that borders the east of the state where Hello Love's performer lived in when he died?")).toEqual([
      "Who is Hello Love's performer?",
      'What is the state where [performer from step 1] lived in when he died?',
      'What is the state that borders the east of [state from step 2]?',
      'How many Publix stores are in [state from step 3]?',
    ]);
  });

  it('does not read a stated relation ("become a member of") as a look-up', () => {
    // 2hop__743733_86395.
    expect(decomposeQuestion('When did the country where the village of Clonbrook is located, become a member of CARICOM?')).toEqual([
      'What is the country where the village of Clonbrook is located?',
      'When did [country from step 1], become a member of CARICOM?',
    ]);
  });

  it('leaves a single look-up whole', () => {
    expect(decomposeQuestion('Who wrote Dune?')).toEqual(['Who wrote Dune?']);
    // 2hop__767756_134798, and the first step of 3hop1__333281_308553_34740 (a possessive alone).
    expect(decomposeQuestion('Who is the wife of Kim Jong-chul?')).toEqual(['Who is the wife of Kim Jong-chul?']);
    expect(decomposeQuestion("Who is Izgoy's performer?")).toEqual(["Who is Izgoy's performer?"]);
  });
});
