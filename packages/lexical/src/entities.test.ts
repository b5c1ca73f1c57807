import { capitalisedSpans, dates, numbers, quotedTitles, yearOf } from './entities';

describe('entities', () => {
  // Questions and supporting sentences of hotpotqa/train-100.json (and one musique/train-100.json question).
  it('finds capitalised spans with connectors, stopping at punctuation and dropping sentence-initial words', () => {
    // 5adbfb9955429947ff17388f: "Which of the" is dropped, "of" and "and" join the words of a name.
    expect(capitalisedSpans('Which of the founders of the Mississippi Institute of Arts and Letters contributed to the Mississippi Education Reform Act?')).toEqual([
      'Mississippi Institute of Arts and Letters',
      'Mississippi Education Reform Act',
    ]);
    // 5a8501655542997175ce1f58 and 5ac3a60f5542993915413880 (supporting paragraphs, the second shortened): brackets end a span.
    expect(capitalisedSpans('Ann Bradford Davis (May 3, 1926 – June 1, 2014) was an American actress.')).toEqual(['Ann Bradford Davis', 'May', 'June', 'American']);
    expect(capitalisedSpans('Géza von Cziffra (] ; 19 December 1900 – 28 April 1989) was a Hungarian film director.')).toEqual(['Géza von Cziffra', 'December', 'April', 'Hungarian']);
  });

  it('counts an ordinal as a capitalised word, and a bare number as none', () => {
    // 5ae717ec5542995703ce8bd0 (supporting paragraph) and musique-train 2hop__732691_37939.
    expect(capitalisedSpans('Edward Stanley, 3rd Earl of Derby KG (c. 10 May 1509 – 24 October 1572) was an English nobleman and politician.')).toEqual([
      'Edward Stanley',
      '3rd Earl of Derby KG',
      'May',
      'October',
      'English',
    ]);
    expect(capitalisedSpans('What amount of TEUs did the location where the 26th Chess Olympiad occur handle in 2010?')).toEqual(['TEUs', '26th Chess Olympiad']);
    // 5ae20b6c5542997283cd235b: the digits are left out.
    expect(capitalisedSpans('Heinkel HD 23 was a type of plane that was held on the craft that were first developed when?')).toEqual(['Heinkel HD']);
  });

  it('finds quoted titles, dates and numbers', () => {
    // 5a8e40795542995a26add496; curly quotes are read too (5a727bc85542994cef4bc2d2 names "Dear Brother").
    expect(quotedTitles(' "Wonderland by Night" is a song included in the 1968 album "A Man Without Love" by an English pop singer')).toEqual([
      'Wonderland by Night',
      'A Man Without Love',
    ]);
    expect(quotedTitles('the recording of “Dear Brother”')).toEqual(['Dear Brother']);
    expect(dates('Born on 23 April 1928, released in March 1945 and again in the 1990s')).toEqual(['23 April 1928', 'March 1945', '1990s']);
    // The answer of 5ae49bda55429970de88d9d8.
    expect(yearOf('September 23, 1962')).toBe(1962);
    // 5ac3983a554299657fa290f5 and 5ae226df554299234fd043fd (supporting paragraphs).
    expect(numbers('At the 2011 census, Young had a population of 6,960.').map((n) => n.value)).toEqual([2011, 6960]);
    expect(numbers('the youngest of three Selmon brothers').map((n) => n.value)).toEqual([3]);
  });
});

