import { substitutePlaceholders, unresolvedPlaceholders } from './substitutePlaceholders';

describe('substitutePlaceholders', () => {
  it('fills an OPERA sub-goal from trajectory memory', () => {
    const memory = new Map([['1', 'Christopher Nolan']]);
    expect(substitutePlaceholders('What was the occupation of [director from step 1]?', memory)).toBe(
      'What was the occupation of Christopher Nolan?',
    );
  });

  it('fills #N references from a plain record', () => {
    expect(substitutePlaceholders('Who is the spouse of #1? Was #1 born before #2?', { '1': 'Emma Thomas', '2': '1971' })).toBe(
      'Who is the spouse of Emma Thomas? Was Emma Thomas born before 1971?',
    );
  });

  it('keeps placeholders of unanswered steps so they can be filled later', () => {
    const text = 'Is [person from step 1] older than [person from step 2]?';
    const once = substitutePlaceholders(text, { '1': 'Ann' });
    expect(once).toBe('Is Ann older than [person from step 2]?');
    expect(substitutePlaceholders(once, { '2': 'Bob' })).toBe('Is Ann older than Bob?');
  });

  it('inserts answers literally, even ones that look like placeholders or replace patterns', () => {
    expect(substitutePlaceholders('Who is #1 and #2?', { '1': '#2', '2': "$& and $'" })).toBe("Who is #2 and $& and $'?");
  });

  it('counts an empty answer as resolved', () => {
    expect(substitutePlaceholders('Where is #1?', { '1': '' })).toBe('Where is ?');
  });

  it('ignores inherited object keys', () => {
    expect(substitutePlaceholders('#1', Object.create({ '1': 'inherited' }) as Record<string, string>)).toBe('#1');
  });
});

describe('unresolvedPlaceholders', () => {
  it('lists the placeholders still waiting for an answer', () => {
    const left = unresolvedPlaceholders('Did #1 meet [person from step 2] or #3?', new Map([['2', 'Bob']]));
    expect(left.map((p) => p.raw)).toEqual(['#1', '#3']);
  });
});
