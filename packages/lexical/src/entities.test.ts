import { capitalisedSpans, dates, numbers, quotedTitles, yearOf } from './entities';

describe('entities', () => {
  it('finds capitalised spans with connectors, stopping at punctuation and dropping sentence-initial words', () => {
    expect(capitalisedSpans('The Chief of Protocol of the United States (born May 9, 1882) met Leonardo da Vinci.')).toEqual([
      'Chief of Protocol of the United States',
      'May',
      'Leonardo da Vinci',
    ]);
  });

  it('finds quoted titles, dates and numbers', () => {
    expect(quotedTitles('the film "Kiss and Tell" and “Shazzan”')).toEqual(['Kiss and Tell', 'Shazzan']);
    expect(dates('Born on 23 April 1928, released in March 1945 and again in the 1990s')).toEqual(['23 April 1928', 'March 1945', '1990s']);
    expect(yearOf('January 7, 1943')).toBe(1943);
    expect(numbers('an arena of 3,677 seats and twelve boxes').map((n) => n.value)).toEqual([3677, 12]);
  });
});

