import { parseJsonText } from './jsonFile';

describe('parseJsonText', () => {
  it('names the line and column of a syntax error, not a character offset', () => {
    // A trailing comma on line 3, the kind of slip a hand-edited multihop.config.json has.
    const text = '{\n  "model": "offline",\n  "concurrency": 4,\n}\n';
    expect(() => parseJsonText(text)).toThrow(/^Expected double-quoted property name.* line 4,? column 1\)?$/);
    expect(() => parseJsonText('{\n  "a": 1\n  "b": 2\n}')).toThrow(/line 3,? column 3\)?$/);
  });

  it('parses valid JSON, and leaves messages without a position as they are', () => {
    expect(parseJsonText('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(() => parseJsonText('')).toThrow('Unexpected end of JSON input');
  });
});
