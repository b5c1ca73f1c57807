import { loopProgress, normaliseQuery, repeatedQuery } from './loop';

describe('loopProgress', () => {
  it('normalises case, punctuation and spacing before comparing queries', () => {
    expect(normaliseQuery('  Who directed "Moonfall Harbor"?  ')).toBe('who directed moonfall harbor');
    expect(repeatedQuery('who directed  moonfall harbor', ['Where was Ilse Varga born?', 'Who directed Moonfall Harbor?'])).toBe('Who directed Moonfall Harbor?');
    expect(repeatedQuery('Where was she born', ['Where was Ilse Varga born?'])).toBeUndefined();
    expect(repeatedQuery('?!', ['?'])).toBeUndefined();
  });

  it('stops on a repeated query before anything is retrieved', () => {
    const result = loopProgress({ query: 'Ilse Varga birthplace', earlierQueries: ['ilse varga birthplace.'] });
    expect(result).toMatchObject({ progress: false, kind: 'repeated-query' });
  });

  it('stops when a retrieval adds no passage the loop had not seen, and counts new ones otherwise', () => {
    expect(loopProgress({ query: 'b', earlierQueries: ['a'], retrievedIds: ['p1', 'p2'], seenIds: ['p1', 'p2', 'p3'] })).toMatchObject({
      progress: false,
      kind: 'no-new-passage',
      newPassages: 0,
    });
    expect(loopProgress({ query: 'b', earlierQueries: ['a'], retrievedIds: ['p1', 'p4', 'p4'], seenIds: ['p1'] })).toEqual({ progress: true, newPassages: 1 });
  });

  it('treats an empty retrieval as no progress', () => {
    expect(loopProgress({ query: 'b', earlierQueries: [], retrievedIds: [], seenIds: [] })).toMatchObject({ progress: false, kind: 'no-new-passage' });
  });
});
