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
    // A name that may run on past the phrase ("… Tesla Motors born") is not cut into a look-up of half a name.
    expect(decomposeQuestion('In which city was the founder of Tesla Motors born?')).toEqual(['In which city was the founder of Tesla Motors born?']);
  });

  it('leaves a single look-up whole', () => {
    expect(decomposeQuestion('Who wrote Dune?')).toEqual(['Who wrote Dune?']);
    expect(decomposeQuestion("Who is Anna Benson's mother?")).toEqual(["Who is Anna Benson's mother?"]);
  });
});
