import { decomposeQuestion } from './decomposeQuestion';

// Questions in the style of the MuSiQue train split (compositional chains); the rules know no dataset.
describe('decomposeQuestion', () => {
  it('turns a trailing relative clause into an inner look-up with a placeholder for its answer', () => {
    expect(decomposeQuestion('What is the seat of the county where Van Hook Township is located?')).toEqual([
      'What is the county where Van Hook Township is located?',
      'What is the seat of [county from step 1]?',
    ]);
  });

  it('chains a relative clause and a possessive into three steps, innermost first', () => {
    expect(decomposeQuestion("Who is the spouse of the actress who played Anna Benson's mother?")).toEqual([
      "Who is Anna Benson's mother?",
      'Who is the actress who played [mother from step 1]?',
      'Who is the spouse of [actress from step 2]?',
    ]);
  });

  it('reads a role of a named entity as its own step', () => {
    expect(decomposeQuestion('What award was received by the director of Jaws?')).toEqual([
      'Who is the director of Jaws?',
      'What award was received by [director from step 1]?',
    ]);
  });

  // The questions below are quoted from the MuSiQue train split (musique/train-100.json).
  it('cuts a clause in the middle of the question where the main verb resumes', () => {
    expect(decomposeQuestion('When did the state where Pocahontas Mounds is located become part of the United States?')).toEqual([
      'What is the state where Pocahontas Mounds is located?',
      'When did [state from step 1] become part of the United States?',
    ]);
    // A contact clause (no relative pronoun) keeps its stranded preposition.
    expect(decomposeQuestion('What year did the company Novair International Airways is part of dissolve?')).toEqual([
      'What is the company Novair International Airways is part of?',
      'What year did [company from step 1] dissolve?',
    ]);
  });

  it('gives a 3-hop question three steps: a possessive inside a relation inside the question', () => {
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
    expect(decomposeQuestion("How many Publix stores are in the state that borders the east of the state where Hello Love's performer lived in when he died?")).toEqual([
      "Who is Hello Love's performer?",
      'What is the state where [performer from step 1] lived in when he died?',
      'What is the state that borders the east of [state from step 2]?',
      'How many Publix stores are in [state from step 3]?',
    ]);
  });

  it('does not read a stated relation ("become a member of") as a look-up', () => {
    expect(decomposeQuestion('When did the country where the village of Clonbrook is located, become a member of CARICOM?')).toEqual([
      'What is the country where the village of Clonbrook is located?',
      'When did [country from step 1], become a member of CARICOM?',
    ]);
  });

  it('leaves a single look-up whole', () => {
    expect(decomposeQuestion('Who wrote Dune?')).toEqual(['Who wrote Dune?']);
    expect(decomposeQuestion("Who is Anna Benson's mother?")).toEqual(["Who is Anna Benson's mother?"]);
  });
});
